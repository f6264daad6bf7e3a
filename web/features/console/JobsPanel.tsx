/** The periodic jobs inside the console: the roles that run each, and its runs over every instance. */
import { useQuery } from '@tanstack/react-query';
import { console as consoleApi } from '../../../common/api/calls';
import { relativeTime, spokenInterval } from '../../../common/rules/format';
import { call } from '../../api/client';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import table from '../../ui/DataTable.module.css';
import { Spinner } from '../../ui/Spinner';
import styles from './Console.module.css';

const useJobs = () => useQuery({ queryKey: ['console', 'jobs'], queryFn: () => call(consoleApi.jobs, {}), staleTime: 0 });

export function JobsPanel() {
  const jobs = useJobs();
  return (
    <>
      <p className={styles.intro}>Instances run the jobs of their role (ROLE=all runs every one, ROLE=api none). Runs are counted over every instance.</p>
      {jobs.isPending && <Spinner label="Loading jobs" size="lg" />}
      <Alert>{jobs.isError && failureMessage(jobs.error)}</Alert>
      {jobs.data && (
        <div className={table.tableWrap} tabIndex={0}>
          <table className={table.table}>
            <thead>
              <tr>
                <th scope="col">Job</th><th scope="col">Every</th><th scope="col">Roles</th><th scope="col">Runs</th>
                <th scope="col">Failures</th><th scope="col">Last run</th><th scope="col">Took</th><th scope="col">Last failure</th>
              </tr>
            </thead>
            <tbody>
              {jobs.data.jobs.map((job) => (
                <tr key={job.name}>
                  <td>{job.name}</td>
                  <td>{spokenInterval(job.every_ms)}</td>
                  <td>{job.roles.join(', ')}</td>
                  <td>{job.runs}</td>
                  <td>{job.failures}</td>
                  <td title={job.last_instance ?? undefined}>{job.last_started_at ? relativeTime(job.last_started_at) : <span className={styles.muted}>not yet</span>}</td>
                  <td>{job.last_duration_ms === null ? '' : `${job.last_duration_ms} ms`}</td>
                  <td className={styles.wrap}>{job.last_failed_at ? `${relativeTime(job.last_failed_at)}${job.last_error ? `: ${job.last_error}` : ''}` : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

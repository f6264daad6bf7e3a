/** The periodic jobs inside the console: the roles that run each, and its runs over every instance. */
import { relativeTime, spokenInterval } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { DataTable } from '../../ui/DataTable';
import { Spinner } from '../../ui/Spinner';
import { useConsoleJobs } from './api';
import styles from './Console.module.css';

export function JobsPanel() {
  const jobs = useConsoleJobs();
  return (
    <>
      <p className={styles.intro}>Instances run the jobs of their role (ROLE=all runs every one, ROLE=api none). Runs are counted over every instance.</p>
      {jobs.isPending && <Spinner label="Loading jobs" size="lg" />}
      <Alert>{jobs.isError && failureMessage(jobs.error)}</Alert>
      {jobs.data && (
        <DataTable
          label="Jobs"
          rows={jobs.data.jobs}
          rowKey={(job) => job.name}
          columns={[
            { header: 'Job', cell: (job) => job.name },
            { header: 'Every', cell: (job) => spokenInterval(job.every_ms) },
            { header: 'Roles', cell: (job) => job.roles.join(', ') },
            { header: 'Runs', cell: (job) => job.runs, numeric: true },
            { header: 'Failures', cell: (job) => job.failures, numeric: true },
            {
              header: 'Last run',
              cell: (job) => (job.last_started_at ? <span title={job.last_instance ?? undefined}>{relativeTime(job.last_started_at)}</span> : <span className={styles.muted}>not yet</span>),
            },
            { header: 'Took', cell: (job) => (job.last_duration_ms === null ? '' : `${job.last_duration_ms} ms`), numeric: true },
            {
              header: 'Last failure',
              cell: (job) => (job.last_failed_at ? `${relativeTime(job.last_failed_at)}: ${job.last_error ?? ''}` : ''),
              className: () => styles.wrap,
            },
          ]}
        />
      )}
    </>
  );
}

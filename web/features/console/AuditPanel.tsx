/** The audit log: every moderator and administrator action, newest first. Read only. */
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import table from '../../ui/DataTable.module.css';
import { EmptyState } from '../../ui/EmptyState';
import { LockIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { useAudit } from './api';
import styles from './Console.module.css';

const shown = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 1));

export function AuditPanel() {
  const audit = useAudit();
  const entries = audit.data?.entries ?? [];
  return (
    <>
      <p className={styles.intro}>Every moderator and administrator action, as it was recorded. Entries cannot be changed or removed.</p>
      {audit.isPending && <Spinner label="Loading the audit log" size="lg" />}
      <Alert>{audit.isError && failureMessage(audit.error)}</Alert>
      {audit.isSuccess && entries.length === 0 && <EmptyState icon={<LockIcon />}>Nothing recorded yet.</EmptyState>}
      {entries.length > 0 && (
        <div className={table.tableWrap}>
          <table className={table.table}>
            <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">On</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} data-testid={`audit-${e.action}`}>
                  <td>{new Date(e.created_at).toLocaleString()}</td>
                  <td>{e.actor ? `@${e.actor.username}` : <span className={styles.muted}>command line</span>}</td>
                  <td><strong>{e.action}</strong></td>
                  <td>{e.target_type} {e.target_id}</td>
                  <td><pre className={styles.json}>{shown(e.before)}</pre></td>
                  <td><pre className={styles.json}>{shown(e.after)}</pre></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** The audit log: every moderator and administrator action, newest first. Read only. */
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import table from '../../ui/DataTable.module.css';
import { EmptyState } from '../../ui/EmptyState';
import { LoadMore } from '../../ui/LoadMore';
import { LockIcon } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { useAudit } from './api';
import styles from './Console.module.css';

const shown = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 1));
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Before and after with only the fields that changed (all of them when nothing or everything did). */
function changes(before: unknown, after: unknown): [unknown, unknown] {
  if (!isRecord(before) || !isRecord(after)) return [before, after];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  if (keys.length === 0) return [before, after];
  const pick = (record: Record<string, unknown>) => Object.fromEntries(keys.filter((k) => k in record).map((k) => [k, record[k]]));
  return [pick(before), pick(after)];
}

export function AuditPanel() {
  const audit = useAudit();
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <>
      <p className={styles.intro}>Every moderator and administrator action, as it was recorded (the fields that changed). Entries cannot be changed or removed.</p>
      {audit.isPending && <Spinner label="Loading the audit log" size="lg" />}
      <Alert>{audit.isError && failureMessage(audit.error)}</Alert>
      {audit.isSuccess && entries.length === 0 && <EmptyState icon={<LockIcon />}>Nothing recorded yet.</EmptyState>}
      {entries.length > 0 && (
        <div className={table.tableWrap} tabIndex={0}>
          <table className={table.table}>
            <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">On</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
            <tbody>
              {entries.map((e) => {
                const [before, after] = changes(e.before, e.after);
                return (
                <tr key={e.id} data-testid={`audit-${e.action}`}>
                  <td>{new Date(e.created_at).toLocaleString()}</td>
                  <td>{e.actor ? `@${e.actor.username}` : <span className={styles.muted}>command line</span>}</td>
                  <td><strong>{e.action}</strong></td>
                  <td>{e.target_type} {e.target_id}</td>
                  <td><pre className={styles.json}>{shown(before)}</pre></td>
                  <td><pre className={styles.json}>{shown(after)}</pre></td>
                </tr>
                );
              })}
            </tbody>
          </table>
          <LoadMore list={audit} />
        </div>
      )}
    </>
  );
}

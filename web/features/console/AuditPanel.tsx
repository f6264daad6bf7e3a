/** The audit log: every moderator and administrator action, newest first. Read only. */
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { DataTable } from '../../ui/DataTable';
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
        <DataTable
          rows={entries}
          rowKey={(e) => e.id}
          rowTestId={(e) => `audit-${e.action}`}
          footer={<LoadMore list={audit} />}
          columns={[
            { header: 'When', cell: (e) => new Date(e.created_at).toLocaleString() },
            { header: 'Who', cell: (e) => (e.actor ? `@${e.actor.username}` : <span className={styles.muted}>command line</span>) },
            { header: 'Action', cell: (e) => <strong>{e.action}</strong> },
            { header: 'On', cell: (e) => `${e.target_type} ${e.target_id}` },
            { header: 'Before', cell: (e) => <pre className={styles.json}>{shown(changes(e.before, e.after)[0])}</pre> },
            { header: 'After', cell: (e) => <pre className={styles.json}>{shown(changes(e.before, e.after)[1])}</pre> },
          ]}
        />
      )}
    </>
  );
}

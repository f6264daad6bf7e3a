/** The reports queue: open reports with their actions, handled ones with who handled them. */
import { useState } from 'react';
import { ACTIONS_FOR, mayTakeAction, type ReportAction } from '../../../common/console';
import { console as consoleApi } from '../../../common/api/calls';
import type { ConsoleReport } from '../../../common/api/console';
import { relativeTime } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { useSkinPath } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { LoadMore } from '../../ui/LoadMore';
import { CheckIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Spinner } from '../../ui/Spinner';
import { Tabs } from '../../ui/Tabs';
import { useSession } from '../accounts';
import { useConsoleAction, useReports } from './api';
import styles from './Console.module.css';

export const ACTION_LABELS: Record<ReportAction, string> = {
  END_STREAM: 'End Stream', DELETE: 'Delete', HIDE: 'Hide', SUSPEND_USER: 'Suspend User', DISMISS: 'Dismiss',
};

/** The actions that still mean something for the item as it is now (a handled one is not dismissed again). */
function actionsFor(report: ConsoleReport): ReportAction[] {
  const gone = report.item_state === 'deleted';
  return ACTIONS_FOR[report.kind].filter((action) =>
    action === 'END_STREAM' ? report.item_state === 'live'
      : action === 'DELETE' ? !gone
        : action === 'HIDE' ? !gone && report.item_state !== 'hidden'
          : action === 'DISMISS' ? report.handled === null
            : report.handled?.resolution !== 'SUSPEND_USER');
}

export function ReportsPanel() {
  const [status, setStatus] = useState<'open' | 'handled'>('open');
  return (
    <Tabs
      label="Reports"
      value={status}
      onValueChange={setStatus}
      tabs={[
        { value: 'open', label: 'Open', content: status === 'open' ? <ReportsTable status="open" /> : null },
        { value: 'handled', label: 'Handled', content: status === 'handled' ? <ReportsTable status="handled" /> : null },
      ]}
    />
  );
}

function ReportsTable({ status }: { status: 'open' | 'handled' }) {
  const reports = useReports(status);
  const act = useConsoleAction(consoleApi.reportAction);
  const [confirming, setConfirming] = useState<ConsoleReport | null>(null);
  const { user } = useSession();
  const rows = reports.data?.pages.flatMap((page) => page.rows) ?? [];
  const run = (report: ConsoleReport, action: ReportAction) => act.mutate({ kind: report.kind, item_id: report.item_id, action });

  return (
    <>
      {reports.isPending && <Spinner label="Loading reports" size="lg" />}
      <Alert>{(reports.isError && failureMessage(reports.error)) || (act.isError && failureMessage(act.error))}</Alert>
      {reports.isSuccess && rows.length === 0 && <EmptyState icon={<CheckIcon />}>{status === 'open' ? 'No open reports.' : 'No handled reports yet.'}</EmptyState>}
      {rows.length > 0 && (
        <DataTable
          rows={rows}
          rowKey={(report) => `${report.kind}-${report.item_id}-${report.reporter.user_id}-${report.created_at}`}
          rowTestId={(report) => `report-${report.kind}-${report.item_id}`}
          footer={<LoadMore list={reports} />}
          columns={[
            { header: 'Reported', cell: (report) => <Preview report={report} /> },
            { header: 'Owner', cell: (report) => `@${report.owner.username}` },
            { header: 'Reporter', cell: (report) => `@${report.reporter.username}` },
            {
              header: 'Reason',
              className: () => styles.wrap,
              cell: (report) => (
                <>
                  <strong>{report.type}</strong>
                  {report.comment && <div className={styles.muted}>{report.comment}</div>}
                </>
              ),
            },
            { header: 'When', cell: (report) => <time dateTime={report.created_at} title={new Date(report.created_at).toLocaleString()}>{relativeTime(report.created_at)}</time> },
            status === 'handled' && {
              header: 'Handled',
              cell: (report) =>
                report.handled && (
                  <span>
                    {ACTION_LABELS[report.handled.resolution]} by @{report.handled.by.username}
                    <div className={styles.muted}>{relativeTime(report.handled.at)}</div>
                  </span>
                ),
            },
            {
              header: 'Actions',
              cell: (report) => (
                <div className={styles.actions}>
                  {actionsFor(report).filter((action) => mayTakeAction(user, action, report.kind)).map((action) => (
                    <Button
                      key={action}
                      size="sm"
                      variant={action === 'DISMISS' ? 'ghost' : action === 'SUSPEND_USER' || action === 'DELETE' ? 'danger' : 'secondary'}
                      disabled={act.isPending}
                      onClick={() => (action === 'SUSPEND_USER' ? setConfirming(report) : run(report, action))}
                    >
                      {ACTION_LABELS[action]}
                    </Button>
                  ))}
                </div>
              ),
            },
          ]}
        />
      )}
      <Modal
        open={confirming !== null}
        onOpenChange={(open) => !open && setConfirming(null)}
        title="Suspend User"
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(null)}>Cancel</Button>
            <Button
              variant="danger"
              onClick={() => {
                if (confirming) run(confirming, 'SUSPEND_USER');
                setConfirming(null);
              }}
            >
              Suspend
            </Button>
          </>
        }
      >
        Suspend @{confirming?.owner.username}? They are signed out, cannot sign in, and their streams are hidden.
      </Modal>
    </>
  );
}

/** What each kind of reported item is called in the queue (a private message has no page to link to). */
const KIND_LABEL: Record<ConsoleReport['kind'], string> = { stream: 'stream', post: 'post', comment: 'comment', 'direct-message': 'direct message' };

function Preview({ report }: { report: ConsoleReport }) {
  const skinPath = useSkinPath();
  const link = report.kind === 'stream' ? `/streams/stream-view?id=${report.item_id}` : report.kind === 'post' ? `/post/post-view?id=${report.item_id}` : null;
  return (
    <div className={styles.preview}>
      {report.kind === 'stream' && (report.image ? <img className={styles.thumb} src={report.image} alt="" /> : <span className={styles.thumb} />)}
      <div>
        <span className={`${styles.badge} ${report.item_state === 'live' ? styles.live : ''}`}>{KIND_LABEL[report.kind]}{report.item_state !== 'shown' ? ` · ${report.item_state}` : ''}</span>
        <div>{link && report.item_state !== 'deleted' ? <a href={skinPath(link)} target="_blank" rel="noreferrer">{report.preview || '(untitled)'}</a> : report.preview}</div>
      </div>
    </div>
  );
}

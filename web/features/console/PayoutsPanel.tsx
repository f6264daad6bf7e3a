/**
 * Payouts (decision 0061): the queue of payout requests with each creator's earnings and standing — a
 * creator with an open dispute or a debt is held and cannot be approved —, approve or reject with a
 * reason, export the approved bank transfers as the bank's CSV, and import the bank's answer.
 */
import { useState } from 'react';
import { payouts as payoutsApi } from '../../../common/api/calls';
import { PAYOUT_STATE_LABELS, type ConsolePayout } from '../../../common/api/payouts';
import { formatCents, relativeTime } from '../../../common/rules/format';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { failureMessage } from '../../api/field-errors';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { Modal } from '../../ui/Modal';
import { WalletIcon } from '../../ui/icons';
import { Section } from '../../ui/Page';
import { Spinner } from '../../ui/Spinner';
import { TextArea } from '../../ui/TextArea';
import { TextField } from '../../ui/TextField';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/client';
import { consoleKeys, useConsoleAction } from './api';
import styles from './Console.module.css';
import { Stacked } from './Stacked';

/** The queue's own query lives here, in the panel's lazy chunk, with the payout calls it needs. */
const usePayoutQueue = () => useQuery({ queryKey: consoleKeys.payouts(), queryFn: () => call(payoutsApi.adminPayouts, {}), staleTime: 0 });

export function PayoutsPanel() {
  return (
    <>
      <Section title="Payout requests" description="Open requests, oldest first. A creator with an open dispute or a debt is held: approve once it is settled, or reject.">
        <Queue />
      </Section>
      <Section title="Bank transfers" description="Export the approved bank transfers as one file for your bank, then import the bank's answer: one line per payout, PO-<number>,paid or PO-<number>,failed,<reason>. A transfer the bank sends back after it was imported as paid comes as PO-<number>,returned,<reason>: its coins go back to the creator's wallet.">
        <BankFiles />
      </Section>
    </>
  );
}

function Queue() {
  const queue = usePayoutQueue();
  const approve = useConsoleAction(payoutsApi.approvePayout);
  const [rejecting, setRejecting] = useState<ConsolePayout | null>(null);
  if (queue.isPending) return <Spinner label="Loading payout requests" />;
  if (queue.isError) return <Alert>{failureMessage(queue.error)}</Alert>;
  if (queue.data.requests.length === 0) return <EmptyState icon={<WalletIcon />}>No payout request is open.</EmptyState>;
  return (
    <>
      {approve.isError && <Alert>{failureMessage(approve.error)}</Alert>}
      <DataTable
        label="Payout requests"
        rows={queue.data.requests}
        rowKey={(r) => String(r.id)}
        columns={[
          { header: 'Creator', cell: (r) => <Stacked main={`@${r.user.username}`} sub={r.payee ? `${r.payee.method === 'stripe_connect' ? 'Stripe' : r.payee.account_holder} ····${r.payee.account_last4}` : 'no account'} /> },
          { header: 'Payout', cell: (r) => <Stacked main={formatCoins(r.coins)} sub={formatCents(r.usd_cents, 'USD')} />, numeric: true },
          { header: 'Earnings', cell: (r) => <Stacked main={`${formatCoins(r.earnings.earned_total)} earned`} sub={`${formatCoins(r.earnings.paid_out)} paid before, ${formatCoins(r.earnings.pending)} pending`} /> },
          { header: 'Standing', cell: (r) => <Standing request={r} /> },
          { header: 'Asked', cell: (r) => <span title={r.requested_at}>{relativeTime(r.requested_at)}{r.automatic ? ' (automatic)' : ''}</span> },
          { header: 'State', cell: (r) => <span className={styles.badge}>{PAYOUT_STATE_LABELS[r.state]}</span> },
          {
            header: '',
            cell: (r) => r.state === 'exported' || r.state === 'sent' ? null : (
              <span className={styles.toolbar}>
                {r.state === 'requested' && (
                  <Button size="sm" disabled={r.on_hold} loading={approve.isPending && approve.variables?.id === r.id} onClick={() => approve.mutate({ id: r.id })} aria-label={`Approve payout ${r.id}`}>Approve</Button>
                )}
                <Button size="sm" variant="secondary" onClick={() => setRejecting(r)} aria-label={`Reject payout ${r.id}`}>Reject</Button>
              </span>
            ),
          },
        ]}
      />
      <RejectModal request={rejecting} close={() => setRejecting(null)} />
    </>
  );
}

function Standing({ request: r }: { request: ConsolePayout }) {
  if (!r.on_hold) return <span>Clear</span>;
  const why = [r.open_disputes > 0 ? `${r.open_disputes} dispute${r.open_disputes > 1 ? 's' : ''} open` : '', r.coins_owed > 0 ? `owes ${formatCoins(r.coins_owed)}` : ''].filter(Boolean).join(', ');
  return <Stacked main="On hold" sub={why} />;
}

function RejectModal({ request, close }: { request: ConsolePayout | null; close: () => void }) {
  const [reason, setReason] = useState('');
  const reject = useConsoleAction(payoutsApi.rejectPayout);
  const submit = () => request && reject.mutate({ id: request.id, reason }, { onSuccess: () => { setReason(''); close(); } });
  return (
    <Modal
      open={request !== null}
      onOpenChange={(open) => !open && close()}
      title="Reject payout"
      description={request ? `The ${formatCoins(request.coins)} of @${request.user.username} go back to their wallet, and they are told why.` : ''}
      footer={
        <>
          <Button variant="secondary" onClick={close}>Cancel</Button>
          <Button variant="danger" loading={reject.isPending} onClick={submit}>Reject</Button>
        </>
      }
    >
      <form className={styles.detail} onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={300} />
        <Alert>{reject.isError && failureMessage(reject.error)}</Alert>
      </form>
    </Modal>
  );
}

/** The bank CSV handed to the browser as a file. */
function download(filename: string, csv: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  link.download = filename;
  link.click();
  URL.revokeObjectURL(link.href);
}

function BankFiles() {
  const exporting = useConsoleAction(payoutsApi.exportPayouts);
  const importing = useConsoleAction(payoutsApi.importPayouts);
  const [answer, setAnswer] = useState('');
  return (
    <>
      <div className={styles.toolbar}>
        <Button variant="secondary" loading={exporting.isPending} onClick={() => exporting.mutate({}, { onSuccess: (batch) => download(batch.filename, batch.csv) })}>Export approved transfers</Button>
        {exporting.data && <span role="status">Batch {exporting.data.batch_id}: {exporting.data.count} transfer{exporting.data.count === 1 ? '' : 's'}, {formatCents(exporting.data.total_usd_cents, 'USD')}.</span>}
      </div>
      {exporting.isError && <Alert>{failureMessage(exporting.error)}</Alert>}
      <form className={styles.detail} onSubmit={(e) => { e.preventDefault(); importing.mutate({ csv: answer }, { onSuccess: () => setAnswer('') }); }}>
        <TextArea label="The bank's answer" value={answer} onChange={(e) => setAnswer(e.target.value)} rows={4} placeholder="PO-12,paid" />
        <Button type="submit" loading={importing.isPending}>Import</Button>
        {importing.data && <span role="status">{importing.data.paid} paid, {importing.data.failed} failed, {importing.data.returned} returned, {importing.data.unchanged} unchanged.</span>}
        <Alert>{importing.isError && failureMessage(importing.error)}</Alert>
      </form>
    </>
  );
}

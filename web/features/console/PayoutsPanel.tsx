/**
 * Payouts (decision 0061): the queue of payout requests with each creator's earnings and standing — a
 * creator with an open dispute or a debt is held and cannot be approved —, approve or reject with a
 * reason, export the approved bank transfers as the bank's CSV, and import the bank's answer. A payout
 * sent to a processor (Stripe, PayPal) that has not answered within the reconcile lease may be marked
 * failed; a processor's success heard after that is listed as needing attention (decision 0064).
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
const useAttention = () => useQuery({ queryKey: [...consoleKeys.payouts(), 'attention'], queryFn: () => call(payoutsApi.adminPayouts, { state: 'attention' }), staleTime: 0 });

const payeeText = (p: NonNullable<ConsolePayout['payee']>) =>
  p.method === 'paypal' ? `PayPal ${p.account_holder}` : `${p.method === 'stripe_connect' ? 'Stripe' : p.account_holder} ····${p.account_last4}`;

export function PayoutsPanel() {
  return (
    <>
      <Section title="Payout requests" description="Open requests, oldest first. A creator with an open dispute or a debt is held: approve once it is settled, or reject.">
        <Queue />
      </Section>
      <NeedingAttention />
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
  const [failing, setFailing] = useState<ConsolePayout | null>(null);
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
          { header: 'Creator', cell: (r) => <Stacked main={`@${r.user.username}`} sub={r.payee ? payeeText(r.payee) : 'no account'} /> },
          { header: 'Payout', cell: (r) => <Stacked main={formatCoins(r.coins)} sub={formatCents(r.usd_cents, 'USD')} />, numeric: true },
          { header: 'Earnings', cell: (r) => <Stacked main={`${formatCoins(r.earnings.earned_total)} earned`} sub={`${formatCoins(r.earnings.paid_out)} paid before, ${formatCoins(r.earnings.pending)} pending`} /> },
          { header: 'Standing', cell: (r) => <Standing request={r} /> },
          { header: 'Asked', cell: (r) => <span title={r.requested_at}>{relativeTime(r.requested_at)}{r.automatic ? ' (automatic)' : ''}</span> },
          { header: 'State', cell: (r) => <span className={styles.badge}>{PAYOUT_STATE_LABELS[r.state]}</span> },
          {
            header: '',
            cell: (r) => r.state === 'sent' ? <MarkFailedButton request={r} onClick={() => setFailing(r)} /> : r.state === 'exported' ? null : (
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
      <ReasonModal request={rejecting} close={() => setRejecting(null)} def={payoutsApi.rejectPayout} verb="Reject"
        description={(r) => `The ${formatCoins(r.coins)} of @${r.user.username} go back to their wallet, and they are told why.`} />
      <ReasonModal request={failing} close={() => setFailing(null)} def={payoutsApi.markPayoutFailed} verb="Mark failed"
        description={(r) => `The processor has not answered. The ${formatCoins(r.coins)} of @${r.user.username} go back to their wallet; if the processor pays it after all, it is listed as needing attention, not paid again.`} />
    </>
  );
}

function Standing({ request: r }: { request: ConsolePayout }) {
  if (!r.on_hold) return <span>Clear</span>;
  const why = [r.open_disputes > 0 ? `${r.open_disputes} dispute${r.open_disputes > 1 ? 's' : ''} open` : '', r.coins_owed > 0 ? `owes ${formatCoins(r.coins_owed)}` : ''].filter(Boolean).join(', ');
  return <Stacked main="On hold" sub={why} />;
}

/** Sent to a processor: may be marked failed once its answer is overdue (the reconcile lease ran out). */
function MarkFailedButton({ request: r, onClick }: { request: ConsolePayout; onClick: () => void }) {
  const after = r.mark_failed_after ? Date.parse(r.mark_failed_after) : Infinity;
  const [now] = useState(() => Date.now());
  const overdue = after <= now;
  return (
    <Button size="sm" variant="secondary" disabled={!overdue} onClick={onClick} aria-label={`Mark payout ${r.id} failed`}
      title={overdue ? 'The processor has not answered' : `Waiting for the processor's answer until ${new Date(after).toLocaleTimeString()}`}>Mark failed</Button>
  );
}

function NeedingAttention() {
  const flagged = useAttention();
  if (!flagged.data || flagged.data.requests.length === 0) return null;
  return (
    <Section title="Needing attention" description="The processor paid these payouts after they failed here and their coins were given back.">
      <ul className={styles.detail} aria-label="Payouts needing attention">
        {flagged.data.requests.map((r) => (
          <li key={r.id}><Alert>Payout {r.id} of @{r.user.username} ({formatCents(r.usd_cents, 'USD')}): {r.attention}</Alert></li>
        ))}
      </ul>
    </Section>
  );
}

function ReasonModal({ request, close, def, verb, description }: {
  request: ConsolePayout | null; close: () => void; def: typeof payoutsApi.rejectPayout | typeof payoutsApi.markPayoutFailed; verb: string; description: (r: ConsolePayout) => string;
}) {
  const [reason, setReason] = useState('');
  const reject = useConsoleAction(def);
  const submit = () => request && reject.mutate({ id: request.id, reason }, { onSuccess: () => { setReason(''); close(); } });
  return (
    <Modal
      open={request !== null}
      onOpenChange={(open) => !open && close()}
      title={`${verb} payout`}
      description={request ? description(request) : ''}
      footer={
        <>
          <Button variant="secondary" onClick={close}>Cancel</Button>
          <Button variant="danger" loading={reject.isPending} onClick={submit}>{verb}</Button>
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

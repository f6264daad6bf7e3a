/**
 * Payments (decision 0057): the queue of accounts on hold — each refund or dispute of their deposits,
 * what they owe — and a user's deposits, any of which can be given back, in whole or in part, through
 * its processor (POST /api/admin/payment-refund).
 */
import { useState } from 'react';
import { wallet as walletApi } from '../../../common/api/calls';
import type { ConsoleDeposit, HeldAccountCase } from '../../../common/api/wallet';
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
import { TextField } from '../../ui/TextField';
import { useConsoleAction, useHeldAccounts, useUserDeposits } from './api';
import { Stacked } from './Stacked';
import styles from './Console.module.css';

const STATES: Record<HeldAccountCase['state'], string> = {
  dispute_open: 'Dispute open',
  dispute_won: 'Dispute won',
  dispute_lost: 'Dispute lost',
  refunded: 'Refunded',
};

export function PaymentsPanel() {
  const [text, setText] = useState('');
  const [username, setUsername] = useState('');
  const show = (name: string) => {
    setText(name);
    setUsername(name);
  };
  return (
    <>
      <Section title="Accounts on hold" description="Accounts that owe coins after a refund or a dispute, or have a dispute open: they cannot spend or withdraw until it is settled.">
        <HeldQueue onDeposits={show} />
      </Section>
      <Section title="Deposits" description="Find a user's deposits and give one back through its payment processor; the coins leave their wallet when the processor confirms.">
        <form className={styles.toolbar} role="search" onSubmit={(e) => { e.preventDefault(); setUsername(text.trim()); }}>
          <TextField label="Username" type="search" value={text} onChange={(e) => setText(e.target.value)} maxLength={100} />
          <Button type="submit" variant="secondary">Find deposits</Button>
        </form>
        {username !== '' && <Deposits username={username} />}
      </Section>
    </>
  );
}

function HeldQueue({ onDeposits }: { onDeposits: (username: string) => void }) {
  const held = useHeldAccounts();
  if (held.isPending) return <Spinner label="Loading accounts on hold" />;
  if (held.isError) return <Alert>{failureMessage(held.error)}</Alert>;
  if (held.data.cases.length === 0) return <EmptyState icon={<WalletIcon />}>No account is on hold.</EmptyState>;
  return (
    <DataTable
      label="Accounts on hold"
      rows={held.data.cases}
      rowKey={(c) => `${c.payment_id}:${c.case_reference}`}
      columns={[
        { header: 'User', cell: (c) => <Stacked main={`@${c.user.username}`} sub={`owes ${formatCoins(c.user_coins_owed)}`} /> },
        { header: 'Payment', cell: (c) => <Stacked main={`#${c.payment_id}`} sub={shortRef(c.provider_reference)} title={`${c.provider}: ${c.provider_reference}`} /> },
        { header: 'Case', cell: (c) => <Stacked main={c.reason === 'dispute' ? 'Dispute' : 'Refund'} sub={shortRef(c.case_reference)} title={c.case_reference} /> },
        { header: 'Amount', cell: (c) => formatCents(c.amount, c.currency), numeric: true },
        { header: 'Coins', cell: (c) => <Stacked main={`${formatCoins(c.coins_taken)} taken`} sub={`${formatCoins(c.coins_short)} short`} />, numeric: true },
        { header: 'Opened', cell: (c) => <span title={c.opened_at}>{relativeTime(c.opened_at)}</span> },
        { header: 'State', cell: (c) => <span className={styles.badge}>{STATES[c.state]}</span> },
        { header: '', cell: (c) => <Button size="sm" variant="secondary" onClick={() => onDeposits(c.user.username)} aria-label={`Deposits of @${c.user.username}`}>Deposits</Button> },
      ]}
    />
  );
}

/** A processor's reference cut to its start (the whole in the cell's title): `pi_7d80c480e3…`. */
const shortRef = (ref: string) => (ref.length > 16 ? `${ref.slice(0, 14)}…` : ref);

/** A cell of two lines: what it is, and a muted detail (a reference, a figure). */

function Deposits({ username }: { username: string }) {
  const found = useUserDeposits(username);
  const [refunding, setRefunding] = useState<ConsoleDeposit | null>(null);
  if (found.isPending) return <Spinner label="Loading deposits" />;
  if (found.isError) return <Alert>{failureMessage(found.error)}</Alert>;
  const { user, deposits } = found.data;
  return (
    <section className={styles.detail} aria-label={`Deposits of @${user.username}`}>
      <p className={styles.muted}>
        @{user.username} · {user.on_hold ? `on hold, owes ${formatCoins(user.coins_owed)}` : 'not on hold'}
      </p>
      {deposits.length === 0 ? (
        <EmptyState icon={<WalletIcon />}>No deposits.</EmptyState>
      ) : (
        <DataTable
          label={`Deposits of @${user.username}`}
          rows={deposits}
          rowKey={(d) => d.payment_id}
          columns={[
            { header: 'Payment', cell: (d) => `#${d.payment_id}` },
            { header: 'Made', cell: (d) => <span title={d.created_at}>{relativeTime(d.created_at)}</span> },
            { header: 'Processor', cell: (d) => <Stacked main={`${d.provider} (${d.method})`} sub={d.provider_reference} /> },
            { header: 'Status', cell: (d) => d.status },
            { header: 'Coins', cell: (d) => formatCoins(d.coins), numeric: true },
            { header: 'Paid', cell: (d) => formatCents(d.amount, d.currency), numeric: true },
            { header: 'Given back', cell: (d) => formatCents(d.refunded, d.currency), numeric: true },
            {
              header: '',
              cell: (d) => d.refundable && (
                <Button size="sm" variant="danger" onClick={() => setRefunding(d)} aria-label={`Refund payment #${d.payment_id}`}>Refund…</Button>
              ),
            },
          ]}
        />
      )}
      <RefundDialog deposit={refunding} onClose={() => setRefunding(null)} />
    </section>
  );
}

/** "12.50" → 1250 cents; null when it is not an amount. */
function centsOf(text: string): number | null {
  const match = /^(\d{1,7})(?:\.(\d{1,2}))?$/.exec(text.trim());
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
}

/** Refund: all that is left, or the amount typed; the server asks the processor, keyed so a double click refunds once. */
function RefundDialog({ deposit, onClose }: { deposit: ConsoleDeposit | null; onClose: () => void }) {
  const refund = useConsoleAction(walletApi.refundPayment);
  const [amount, setAmount] = useState('');
  const [tried, setTried] = useState(false);
  const left = deposit ? deposit.amount - deposit.refunded : 0;
  const cents = amount.trim() === '' ? left : centsOf(amount);
  const invalid = cents === null || cents <= 0 || cents > left;
  const close = () => {
    setAmount('');
    setTried(false);
    refund.reset();
    onClose();
  };
  const submit = () => {
    setTried(true);
    if (deposit && !invalid) refund.mutate({ payment_id: deposit.payment_id, amount: cents! }, { onSuccess: close });
  };
  return (
    <Modal
      open={deposit !== null}
      onOpenChange={(open) => !open && close()}
      title="Refund deposit"
      description={deposit ? `Give back payment #${deposit.payment_id} through ${deposit.provider}: ${formatCents(left, deposit.currency)} is left of ${formatCents(deposit.amount, deposit.currency)}. Its coins leave the wallet as far as it holds them; the rest is owed.` : ''}
      footer={
        <>
          <Button variant="secondary" onClick={close}>Cancel</Button>
          <Button variant="danger" loading={refund.isPending} onClick={submit}>Refund</Button>
        </>
      }
    >
      <form className={styles.detail} onSubmit={(e) => { e.preventDefault(); submit(); }}>
        <TextField
          label={`Amount (${deposit?.currency ?? ''})`}
          hint="Leave empty to give back all that is left."
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={tried && invalid ? `Enter an amount up to ${deposit ? formatCents(left, deposit.currency) : ''}.` : undefined}
        />
        <Alert>{refund.isError && failureMessage(refund.error)}</Alert>
      </form>
    </Modal>
  );
}

/**
 * /user/account/earnings (decision 0061): what the creator earned — in the hold, available, paid out —
 * in coins and US dollars, the next withdraw date, the bank account payouts go to, a payout request,
 * automatic payouts, and every request's state.
 */
import { useState, type FormEvent } from 'react';
import { PAYOUT_SCHEDULES, PAYOUT_STATE_LABELS as STATE_LABELS, type Earnings, type PayoutRequest, type PayoutSchedule } from '../../../common/api/payouts';
import { fill, MSG } from '../../../common/messages';
import { formatCents, formatCoins } from '../../../common/rules/wallet-amounts';
import { failureMessage } from '../../api/field-errors';
import { newIdempotencyKey } from '../../api/idempotency';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { WalletIcon } from '../../ui/icons';
import { Page, Section } from '../../ui/Page';
import { Select } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { TextField } from '../../ui/TextField';
import { useCancelPayout, useEarnings, useRequestPayout, useSavePayoutMethod, useSetPayoutSchedule } from './earnings-api';
import { PayPalPayoutMethod } from './PayPalPayoutMethod';
import { StripePayoutMethod } from './StripePayoutMethod';
import styles from './wallet.module.css';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const usd = (coins: number, perUsd: number) => formatCents(Math.round((coins * 100) / perUsd), 'USD');

const SCHEDULE_LABELS: Record<PayoutSchedule, string> = { off: 'Off: I ask for each payout', weekly: 'Weekly', monthly: 'Monthly' };
const REQUIREMENT_LABELS = { payout_method: 'a payout method (a bank account, Stripe or PayPal)', tax_form: 'your tax information' } as const;

export function EarningsPage() {
  const earnings = useEarnings();
  if (earnings.isPending) return <Page title="Earnings"><Spinner label="Loading your earnings" /></Page>;
  if (earnings.isError) return <Page title="Earnings"><Alert>{failureMessage(earnings.error)}</Alert></Page>;
  const data = earnings.data;
  return (
    <Page title="Earnings">
      {data.on_hold && <Alert>{MSG.payoutOnHold}</Alert>}
      <Figures earnings={data.earnings} />
      <Section title="Request a payout" description={`Earnings become available ${holdText(data.earnings.hold_seconds)} after you earn them. A payout is at least ${formatCoins(data.earnings.minimum)} (${usd(data.earnings.minimum, data.earnings.coins_per_usd)}).`}>
        {!data.readiness.ready && (
          <Alert>
            {fill(MSG.payoutNotReady, { missing: data.readiness.requirements.filter((r) => !r.done).map((r) => REQUIREMENT_LABELS[r.key]).join(', ') })}
            {data.readiness.requirements.some((r) => r.key === 'tax_form' && !r.done) && <> <SkinLink to="/user/tax-info">Fill in your tax information</SkinLink></>}
          </Alert>
        )}
        {data.open ? <OpenRequest request={data.open} /> : <RequestForm earnings={data.earnings} disabled={!data.readiness.ready || data.on_hold} />}
        <ScheduleChoice schedule={data.schedule} />
      </Section>
      {data.methods.includes('stripe_connect') && (
        <Section title="Stripe" description="Payouts are sent to your Stripe Express account, in US dollars.">
          <StripePayoutMethod stripe={data.stripe} chosen={data.method?.method === 'stripe_connect'} />
        </Section>
      )}
      {data.methods.includes('paypal') && (
        <Section title="PayPal" description="Payouts are sent by PayPal to your email, in US dollars.">
          <PayPalPayoutMethod email={data.method?.method === 'paypal' ? data.method.account_holder : null} />
        </Section>
      )}
      <Section title="Bank account" description={data.method && data.method.method !== 'bank_transfer'
        ? `Your payouts go to ${data.method.method === 'paypal' ? 'PayPal' : 'Stripe'}. Save a bank account to be paid by bank transfer instead, in US dollars.`
        : 'Payouts are sent by bank transfer to this account, in US dollars.'}>
        <BankAccount current={data.method?.method === 'bank_transfer' ? data.method : null} />
      </Section>
      <Section title="Payouts">
        <PayoutHistory rows={data.history} perUsd={data.earnings.coins_per_usd} />
      </Section>
    </Page>
  );
}

const holdText = (seconds: number) => (seconds % 86_400 === 0 ? `${seconds / 86_400} days` : seconds % 3600 === 0 ? `${seconds / 3600} hours` : `${seconds} seconds`);

function Figures({ earnings: e }: { earnings: Earnings }) {
  const tiles = [
    { label: 'Available', coins: e.available, strong: true },
    { label: 'Pending (in the hold)', coins: e.pending },
    { label: 'In a payout', coins: e.in_payout },
    { label: 'Paid out', coins: e.paid_out },
  ];
  return (
    <>
      <ul className={styles.balances} aria-label="Earnings">
        {tiles.map((tile) => (
          <li key={tile.label} className={`${styles.balance} ${tile.strong ? styles.balanceStrong : ''}`}>
            <span className={styles.balanceLabel}>{tile.label}</span>
            <strong className={styles.balanceValue}>{formatCoins(tile.coins)}</strong>
            <span className={styles.muted}>{usd(tile.coins, e.coins_per_usd)}</span>
          </li>
        ))}
      </ul>
      <p className={styles.muted}>
        Earned in all: {formatCoins(e.earned_total)} after {formatCoins(e.fees_taken)} in platform fees. {e.coins_per_usd} coins = 1 USD.{' '}
        Next withdraw date: {e.next_withdraw_date ? <time dateTime={e.next_withdraw_date}>{dateFormat.format(new Date(e.next_withdraw_date))}</time> : 'none yet'}.
      </p>
    </>
  );
}

function RequestForm({ earnings, disabled }: { earnings: Earnings; disabled: boolean }) {
  const [coins, setCoins] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const request = useRequestPayout();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate({ coins: Number(coins), key }, { onSuccess: () => { setKey(newIdempotencyKey()); setCoins(''); } });
  };
  const tooLittle = earnings.available < earnings.minimum;
  return (
    <form className={styles.toolbar} onSubmit={submit} aria-label="Request a payout">
      <TextField label="Coins" inputMode="numeric" value={coins} onChange={(e) => { setCoins(e.target.value); setKey(newIdempotencyKey()); }}
        hint={`Up to ${formatCoins(earnings.available)}`} error={request.isError ? failureMessage(request.error) : undefined} disabled={disabled || tooLittle} />
      <Button type="button" variant="secondary" disabled={disabled || tooLittle} onClick={() => setCoins(String(earnings.available))}>All available</Button>
      <Button type="submit" disabled={disabled || tooLittle || coins === ''} loading={request.isPending}>Request payout</Button>
    </form>
  );
}

function OpenRequest({ request }: { request: PayoutRequest }) {
  const cancel = useCancelPayout();
  // Only while nobody has taken it up: once approved it is on its way to the bank.
  const cancellable = request.state === 'requested';
  return (
    <div className={styles.toolbar}>
      <p role="status" aria-label="Open payout request">
        Your payout of <strong>{formatCoins(request.coins)}</strong> ({formatCents(request.usd_cents, 'USD')}) is <strong>{STATE_LABELS[request.state].toLowerCase()}</strong>
        {request.automatic ? ' (automatic)' : ''}. You can ask for the next one once it is paid or answered{cancellable ? ', or cancel it while it waits for approval' : ''}.
      </p>
      {cancellable && <Button variant="secondary" loading={cancel.isPending} onClick={() => cancel.mutate({ id: request.id })}>Cancel payout</Button>}
      {cancel.isError && <Alert>{failureMessage(cancel.error)}</Alert>}
    </div>
  );
}

function ScheduleChoice({ schedule }: { schedule: PayoutSchedule }) {
  const set = useSetPayoutSchedule();
  return (
    <div className={styles.toolbar}>
      <Select label="Automatic payouts" value={schedule} disabled={set.isPending}
        options={PAYOUT_SCHEDULES.map((value) => ({ value, label: SCHEDULE_LABELS[value] }))}
        onChange={(e) => set.mutate({ schedule: e.target.value as PayoutSchedule })}
        hint="Everything available is requested for you on the schedule, when it is at least the minimum."
        error={set.isError ? failureMessage(set.error) : undefined} />
    </div>
  );
}

function BankAccount({ current }: { current: { account_holder: string; account_last4: string; bank_name: string; country: string } | null }) {
  const [editing, setEditing] = useState(current === null);
  const [fields, setFields] = useState({ account_holder: current?.account_holder ?? '', account_number: '', bank_name: current?.bank_name ?? '', country: current?.country ?? '' });
  const save = useSavePayoutMethod();
  if (!editing && current) {
    return (
      <div className={styles.toolbar}>
        <p>{current.account_holder}, {current.bank_name} ({current.country}), account ending in <strong>{current.account_last4}</strong></p>
        <Button variant="secondary" onClick={() => setEditing(true)}>Change</Button>
      </div>
    );
  }
  const field = (name: keyof typeof fields, label: string, autoComplete?: string) => (
    <TextField label={label} value={fields[name]} autoComplete={autoComplete} maxLength={100}
      onChange={(e) => setFields({ ...fields, [name]: e.target.value })} />
  );
  return (
    <form className={styles.bankForm} aria-label="Bank account"
      onSubmit={(e) => { e.preventDefault(); save.mutate({ method: 'bank_transfer', ...fields }, { onSuccess: () => setEditing(false) }); }}>
      {field('account_holder', 'Account holder', 'name')}
      {field('account_number', 'Account number or IBAN')}
      {field('bank_name', 'Bank')}
      {field('country', 'Country', 'country-name')}
      {save.isError && <Alert>{failureMessage(save.error)}</Alert>}
      <Button type="submit" loading={save.isPending}>Save bank account</Button>
    </form>
  );
}

function PayoutHistory({ rows, perUsd }: { rows: PayoutRequest[]; perUsd: number }) {
  if (rows.length === 0) return <EmptyState icon={<WalletIcon size={40} />}>No payouts yet.</EmptyState>;
  return (
    <DataTable
      label="Payouts"
      rows={rows}
      rowKey={(row) => String(row.id)}
      columns={[
        { header: 'Requested', cell: (row) => <time dateTime={row.requested_at}>{dateFormat.format(new Date(row.requested_at))}</time> },
        { header: 'Coins', cell: (row) => formatCoins(row.coins), numeric: true },
        { header: 'USD', cell: (row) => usd(row.coins, perUsd), numeric: true },
        { header: 'State', cell: (row) => `${STATE_LABELS[row.state]}${row.reason ? `: ${row.reason}` : ''}` },
      ]}
    />
  );
}

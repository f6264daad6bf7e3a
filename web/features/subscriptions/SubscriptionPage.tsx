/**
 * /subscription: the subscription dashboard (spec part 1 §2 Subscription dashboard, part 2 §2 item 3):
 * My Subscriptions (subscriptions with renew and cancel, coin subscriptions) and My Offers (figures,
 * plan templates to add, own plans, subscribers). Tables show 5 rows a page.
 */
import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { CoinSubscription, PlanTemplate, Subscription } from '../../../common/api/subscriptions';
import { PAGE_SIZE } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { mayCancel, mayRenew } from '../../../common/rules/plans';
import { failureMessage } from '../../api/field-errors';
import { SkinLink, useSkin } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { MailIcon, PlusIcon, StarIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Page, Section } from '../../ui/Page';
import { SelectControl } from '../../ui/Select';
import { Spinner } from '../../ui/Spinner';
import { Tabs } from '../../ui/Tabs';
import { useToast } from '../../ui/Toast';
import { useSession } from '../accounts';
import walletStyles from '../wallet/wallet.module.css';
import {
  useAddPlan, useCancelSubscription, useCoinSubscriptions, useDeletePlan, useMargin, useMySubscribers, useMySubscriptions, usePlans,
  usePlanTemplates, useRenewSubscription, useSubscriberStats, useSubscriptionHistory,
} from './api';
import { CANCEL_REQUEST_COOLDOWN_MS, coinCancelMailto } from './coin-cancel';
import { Paginator } from '../../ui/Paginator';
import styles from './subscriptions.module.css';

const PAGE = PAGE_SIZE.subscriptions;
type Tab = 'subscriptions' | 'offers';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const day = (iso: string) => <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time>;
const STATE_LABELS: Record<Subscription['state'], string> = { enabled: 'Active', cancelled: 'Cancelled', deleted: 'Plan withdrawn' };

export function SubscriptionPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'offers' ? 'offers' : 'subscriptions';
  return (
    <Page title="Subscriptions">
      <Tabs<Tab>
        label="Subscription dashboard"
        value={tab}
        onValueChange={(value) => setParams(value === 'offers' ? { tab: 'offers' } : {}, { replace: true })}
        tabs={[
          { value: 'subscriptions', label: 'My Subscriptions', content: <MySubscriptions /> },
          { value: 'offers', label: 'My Offers', content: <MyOffers /> },
        ]}
      />
    </Page>
  );
}

// ---------------------------------------------------------------------------------------------
// My Subscriptions

function MySubscriptions() {
  return (
    <div className={styles.stack}>
      <Section title="My subscriptions" description="The creators you subscribe to. Benefits last to the end date, even after you cancel.">
        <SubscriptionsTable />
      </Section>
      <Section title="Coins Subscriptions" description="Coin packages bought again every month on your card. To stop one, send the cancellation request by e-mail.">
        <CoinSubscriptionsTable />
      </Section>
    </div>
  );
}

function SubscriptionsTable() {
  const [offset, setOffset] = useState(0);
  const list = useMySubscriptions(offset);
  const [acting, setActing] = useState<{ kind: 'renew' | 'cancel'; subscription: Subscription } | null>(null);
  const [showing, setShowing] = useState<Subscription | null>(null);
  if (list.isPending) return <Spinner label="Loading your subscriptions" />;
  if (list.isError) return <Alert>{failureMessage(list.error)}</Alert>;
  const { subscriptions, total } = list.data;
  if (total === 0) {
    return <EmptyState icon={<StarIcon size={40} />}>{MSG.noSubscriptions}</EmptyState>;
  }
  return (
    <>
      <SubscriptionTable
        label="My subscriptions"
        rows={subscriptions}
        busy={list.isPlaceholderData}
        party={(s) => <><strong>{s.plan_name}</strong> · <SkinLink to={`/u/${s.user_id}`}>@{s.username}</SkinLink></>}
        actions={(s) => (
          <>
            {/* An active auto-renewing subscription needs no Renew: it says when it renews. */}
            {s.auto_renew && s.state === 'enabled' ? (
              <span className={styles.renews}>Renews automatically{s.renewal_date ? <> on {day(s.renewal_date)}</> : null}</span>
            ) : (
              <Button size="sm" variant="secondary" disabled={!mayRenew(s)} onClick={() => setActing({ kind: 'renew', subscription: s })}>
                Renew
              </Button>
            )}
            <Button size="sm" variant="ghost" disabled={!mayCancel(s)} onClick={() => setActing({ kind: 'cancel', subscription: s })}>
              Cancel
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setShowing(s)}>
              History
            </Button>
          </>
        )}
      />
      <Paginator label="Subscription pages" total={total} size={PAGE} offset={offset} onOffset={setOffset} />
      {acting && <SubscriptionActionModal action={acting} onClose={() => setActing(null)} />}
      {showing && <HistoryModal subscription={showing} onClose={() => setShowing(null)} />}
    </>
  );
}

/**
 * The spec's subscription table: Package, Price, State, Begin Date, End Date, Renewal Type, and Actions
 * where the viewer may act. `party` fills the Package cell (the plan and the other party).
 */
function SubscriptionTable({ label, rows, busy, party, actions }: {
  label: string;
  rows: Subscription[];
  busy: boolean;
  party: (s: Subscription) => ReactNode;
  actions?: (s: Subscription) => ReactNode;
}) {
  return (
    <div className={walletStyles.tableWrap} tabIndex={0}>
      <table className={walletStyles.table} aria-label={label} aria-busy={busy || undefined}>
        <thead>
          <tr>
            <th scope="col">Package</th>
            <th scope="col" className={walletStyles.num}>Price</th>
            <th scope="col">State</th>
            <th scope="col">Begin Date</th>
            <th scope="col">End Date</th>
            <th scope="col">Renewal Type</th>
            {actions && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.subscription_id}>
              <td>{party(s)}</td>
              <td className={walletStyles.num}>{s.price_formatted}</td>
              <td>
                <span className={`${styles.state} ${styles[`state_${s.state}`]}`}>{STATE_LABELS[s.state]}</span>
              </td>
              <td>{day(s.begin_date)}</td>
              <td>{day(s.end_date)}</td>
              <td>{s.auto_renew ? `${s.period_label}, automatic` : `${s.period_label}, manual`}</td>
              {actions && <td className={styles.actions}>{actions(s)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SubscriptionActionModal({ action, onClose }: { action: { kind: 'renew' | 'cancel'; subscription: Subscription }; onClose: () => void }) {
  const toast = useToast();
  const renew = useRenewSubscription();
  const cancel = useCancelSubscription();
  const { kind, subscription: s } = action;
  const pending = renew.isPending || cancel.isPending;
  const confirm = () => {
    const done = { onSuccess: () => { toast({ title: kind === 'renew' ? MSG.subscriptionRenewed : MSG.subscriptionCancelled, tone: 'success' }); onClose(); },
      onError: (error: unknown) => toast({ title: kind === 'renew' ? MSG.renewFailed : MSG.cancelFailed, description: failureMessage(error), tone: 'error' }) };
    if (kind === 'renew') renew.mutate(s.subscription_id, done);
    else cancel.mutate(s.subscription_id, done);
  };
  return (
    <Modal
      open
      onOpenChange={(open) => !open && onClose()}
      title={kind === 'renew' ? 'Renew subscription' : 'Cancel subscription'}
      description={kind === 'renew'
        ? `${s.plan_name} with @${s.username} will renew automatically (${s.period_label}, ${s.price_formatted}).`
        : `${s.plan_name} with @${s.username} will not renew. Your benefits last until ${dateFormat.format(new Date(s.end_date))}.`}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>Back</Button>
          <Button variant={kind === 'cancel' ? 'danger' : 'primary'} loading={pending} onClick={confirm}>
            {kind === 'renew' ? 'Renew' : 'Cancel subscription'}
          </Button>
        </>
      }
    />
  );
}

function HistoryModal({ subscription, onClose }: { subscription: Subscription; onClose: () => void }) {
  const history = useSubscriptionHistory(subscription.subscription_id, true);
  return (
    <Modal open onOpenChange={(open) => !open && onClose()} title={`${subscription.plan_name} · @${subscription.username}`} description="What happened to this subscription, newest first.">
      {history.isPending && <Spinner label="Loading the history" />}
      {history.isError && <Alert>{failureMessage(history.error)}</Alert>}
      {history.data && (
        <ol className={styles.history}>
          {history.data.map((entry, i) => (
            <li key={i}>
              <span className={styles.historyCategory}>{entry.category.replaceAll('_', ' ').toLowerCase()}</span>
              <span>{entry.detail}</span>
              <span className={walletStyles.muted}>{day(entry.entry_date)}</span>
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}

function CoinSubscriptionsTable() {
  const [offset, setOffset] = useState(0);
  const list = useCoinSubscriptions(offset);
  if (list.isPending) return <Spinner label="Loading your coin subscriptions" />;
  if (list.isError) return <Alert>{failureMessage(list.error)}</Alert>;
  const { subscriptions, total } = list.data;
  if (total === 0) {
    return (
      <EmptyState action={<SkinLink to="/user/account/deposit-coins">Buy coins every month</SkinLink>}>{MSG.noSubscriptions}</EmptyState>
    );
  }
  return (
    <>
      <div className={walletStyles.tableWrap} tabIndex={0}>
        <table className={walletStyles.table} aria-label="Coins Subscriptions" aria-busy={list.isPlaceholderData || undefined}>
          <thead>
            <tr>
              <th scope="col">Package</th>
              <th scope="col" className={walletStyles.num}>Price</th>
              <th scope="col">Begin Date</th>
              <th scope="col">Expiry Date</th>
              <th scope="col">Next Renewal</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {subscriptions.map((s) => (
              <tr key={s.id}>
                <td>{s.product_name}</td>
                <td className={walletStyles.num}>{s.price_formatted}</td>
                <td>{day(s.start_date)}</td>
                <td>{day(s.expiry_date)}</td>
                <td>{s.next_renewal_date ? day(s.next_renewal_date) : '—'}</td>
                <td>
                  <CoinCancelRequest subscription={s} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Paginator label="Coin subscription pages" total={total} size={PAGE} offset={offset} onOffset={setOffset} />
    </>
  );
}

/** Opens the mail client with the cancellation request; the button rests 3 s after a click. */
function CoinCancelRequest({ subscription }: { subscription: CoinSubscription }) {
  const { user } = useSession();
  const skin = useSkin();
  const [resting, setResting] = useState(false);
  if (subscription.state !== 'enabled') return <span className={`${styles.state} ${styles.state_cancelled}`}>Cancelled</span>;
  const request = () => {
    if (!user) return;
    setResting(true);
    window.setTimeout(() => setResting(false), CANCEL_REQUEST_COOLDOWN_MS);
    window.location.href = coinCancelMailto(skin.supportEmail, user, subscription);
  };
  return (
    <Button size="sm" variant="ghost" icon={<MailIcon size={16} />} disabled={resting} onClick={request}>
      Request cancellation
    </Button>
  );
}

// ---------------------------------------------------------------------------------------------
// My Offers

function MyOffers() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className={styles.stack}>
      <SubscriberStats userId={user.user_id} />
      <Section title="Subscription packages" description="Offer your fans a package: choose a price and add it. Each package at each price once.">
        <Templates />
      </Section>
      <Section title="My packages" description="Withdrawing a package stops new subscriptions and renewals; subscribers keep it to the end of what they paid.">
        <MyPlans userId={user.user_id} />
      </Section>
      <Section title="My Subscribers">
        <Subscribers userId={user.user_id} />
      </Section>
    </div>
  );
}

function SubscriberStats({ userId }: { userId: number }) {
  const stats = useSubscriberStats(userId);
  if (stats.isError) return <Alert>{failureMessage(stats.error)}</Alert>;
  const s = stats.data;
  const tiles = [
    { label: 'Active subscribers', value: s?.active_subscribers },
    { label: 'Subscribers ever', value: s?.total_subscribers },
    { label: 'Paid by subscribers (coins)', value: s?.coins_total },
    { label: 'Revenue (USD)', value: s && `$${s.revenue_usd.toFixed(2)}` },
  ];
  return (
    <ul className={walletStyles.balances} aria-label="Subscriber stats" aria-busy={stats.isPending || undefined}>
      {tiles.map((tile) => (
        <li key={tile.label} className={walletStyles.balance}>
          <span className={walletStyles.balanceLabel}>{tile.label}</span>
          {tile.value !== undefined ? <strong className={walletStyles.balanceValue}>{tile.value}</strong> : <span className={walletStyles.skeleton} />}
        </li>
      ))}
    </ul>
  );
}

function Templates() {
  const templates = usePlanTemplates();
  const margin = useMargin();
  if (templates.isPending) return <Spinner label="Loading the packages" />;
  if (templates.isError) return <Alert>{fill(MSG.planTemplateGetFailed, { message: failureMessage(templates.error) })}</Alert>;
  const available = templates.data.filter((t) => t.prices.some((p) => !p.added));
  return (
    <>
      {margin.data && (
        <p className={walletStyles.muted}>
          The platform keeps {margin.data.margin} % of each payment; you receive {margin.data.creator_share} %.
        </p>
      )}
      {available.length === 0 ? (
        <EmptyState>{MSG.noAvailablePackages}</EmptyState>
      ) : (
        <ul className={styles.templates}>
          {available.map((t) => <TemplateCard key={t.template_id} template={t} />)}
        </ul>
      )}
    </>
  );
}

function TemplateCard({ template }: { template: PlanTemplate }) {
  const toast = useToast();
  const add = useAddPlan();
  const [price, setPrice] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = () => {
    if (!price) {
      setError(MSG.planPriceInvalid);
      return;
    }
    setError(null);
    add.mutate({ template_id: template.template_id, price: Number(price) }, {
      onSuccess: () => {
        toast({ title: MSG.planAdded, tone: 'success' });
        setPrice('');
      },
      onError: (e) => setError(fill(MSG.planAddFailed, { message: failureMessage(e) })),
    });
  };
  const options = template.prices.filter((p) => !p.added).map((p) => ({
    value: String(p.price),
    label: `${p.period_label} · ${p.price} coins ($${p.price_by_currency.USD.toFixed(2)})`,
  }));
  return (
    <li className={styles.template} aria-label={`${template.name} package`}>
      <h3 className={styles.templateName}>{template.name}</h3>
      <p className={walletStyles.muted}>{template.description}</p>
      <ul className={styles.features}>
        {template.features.map((f) => <li key={f}>{f}</li>)}
      </ul>
      <div className={styles.addRow}>
        <SelectControl aria-label={`${template.name} price`} options={options} placeholder="Select a price" value={price} onChange={(e) => setPrice(e.target.value)} />
        <Button icon={<PlusIcon size={16} />} loading={add.isPending} onClick={submit}>
          Add
        </Button>
      </div>
      {error && <p className={styles.error} role="alert">{error}</p>}
    </li>
  );
}

function MyPlans({ userId }: { userId: number }) {
  const plans = usePlans(userId);
  const remove = useDeletePlan();
  const toast = useToast();
  const [deleting, setDeleting] = useState<number | null>(null);
  if (plans.isPending) return <Spinner label="Loading your packages" />;
  if (plans.isError) return <Alert>{fill(MSG.planGetFailed, { message: failureMessage(plans.error) })}</Alert>;
  if (plans.data.plans.length === 0) return <EmptyState>{MSG.noOwnPackages}</EmptyState>;
  const target = plans.data.plans.find((p) => p.plan_id === deleting);
  return (
    <>
      <ul className={styles.plans}>
        {plans.data.plans.map((p) => (
          <li key={p.plan_id} className={styles.plan}>
            <div>
              <strong>{p.name}</strong> · {p.period_label} · {p.price} coins
              {p.discount > 0 && <span className={styles.badge}>Save {p.discount}%</span>}
              {p.bestPrice && <span className={styles.badge}>Best price</span>}
              <p className={walletStyles.muted}>{p.features.join(' · ')}</p>
            </div>
            <Button size="sm" variant="ghost" onClick={() => setDeleting(p.plan_id)}>
              Delete
            </Button>
          </li>
        ))}
      </ul>
      {target && (
        <Modal
          open
          onOpenChange={(open) => !open && setDeleting(null)}
          title="Delete this package?"
          description={`${target.name}, ${target.period_label} at ${target.price} coins will no longer be offered. Its subscribers keep it to the end of what they paid.`}
          footer={
            <>
              <Button variant="secondary" onClick={() => setDeleting(null)}>Back</Button>
              <Button
                variant="danger"
                loading={remove.isPending}
                onClick={() => remove.mutate(target.plan_id, {
                  onSuccess: () => { toast({ title: MSG.planDeleted, tone: 'success' }); setDeleting(null); },
                  onError: (e) => toast({ title: failureMessage(e), tone: 'error' }),
                })}
              >
                Delete package
              </Button>
            </>
          }
        />
      )}
    </>
  );
}

function Subscribers({ userId }: { userId: number }) {
  const [offset, setOffset] = useState(0);
  const list = useMySubscribers(userId, offset);
  if (list.isPending) return <Spinner label="Loading your subscribers" />;
  if (list.isError) return <Alert>{failureMessage(list.error)}</Alert>;
  const { subscriptions, total } = list.data;
  if (total === 0) return <EmptyState icon={<StarIcon size={40} />}>{MSG.noSubscriptions}</EmptyState>;
  return (
    <>
      <SubscriptionTable
        label="My subscribers"
        rows={subscriptions}
        busy={list.isPlaceholderData}
        party={(s) => <><SkinLink to={`/u/${s.user_id}`}>@{s.username}</SkinLink> · {s.plan_name}</>}
      />
      <Paginator label="Subscriber pages" total={total} size={PAGE} offset={offset} onOffset={setOffset} />
    </>
  );
}

/** My Subscriptions (the subscriber's view): the creators subscribed to, with renew, cancel and history, then coin subscriptions. */
import { useState } from 'react';
import type { Subscription } from '../../../common/api/subscriptions';
import { MSG } from '../../../common/messages';
import { mayCancel, mayRenew } from '../../../common/rules/plans';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { EmptyState } from '../../ui/EmptyState';
import { StarIcon } from '../../ui/icons';
import { Modal } from '../../ui/Modal';
import { Section } from '../../ui/Page';
import { Paginator } from '../../ui/Paginator';
import { Spinner } from '../../ui/Spinner';
import { useToast } from '../../ui/Toast';
import { useCancelSubscription, useMySubscriptions, useRenewSubscription, useSubscriptionHistory } from './api';
import { CoinSubscriptionsTable } from './CoinSubscriptionsTable';
import { dateFormat, day, PAGE, SubscriptionTable } from './SubscriptionTable';
import styles from './subscriptions.module.css';

export function MySubscriptions() {
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
              <span className={styles.muted}>{day(entry.entry_date)}</span>
            </li>
          ))}
        </ol>
      )}
    </Modal>
  );
}

/** My Subscriptions' coin subscriptions: coin packages the card buys every month, and the mailed request to stop one. */
import { useState } from 'react';
import type { CoinSubscription } from '../../../common/api/subscriptions';
import { MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { SkinLink, useSkin } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { DataTable } from '../../ui/DataTable';
import { EmptyState } from '../../ui/EmptyState';
import { MailIcon } from '../../ui/icons';
import { Paginator } from '../../ui/Paginator';
import { Spinner } from '../../ui/Spinner';
import { useSession } from '../accounts';
import { useCoinSubscriptions } from './api';
import { CANCEL_REQUEST_COOLDOWN_MS, coinCancelMailto } from './coin-cancel';
import { day, PAGE } from './SubscriptionTable';
import styles from './subscriptions.module.css';

export function CoinSubscriptionsTable() {
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
      <DataTable
        label="Coins Subscriptions"
        rows={subscriptions}
        rowKey={(s) => s.id}
        busy={list.isPlaceholderData}
        accentLinks
        columns={[
          { header: 'Package', cell: (s) => s.product_name },
          { header: 'Price', cell: (s) => s.price_formatted, numeric: true },
          { header: 'Begin Date', cell: (s) => day(s.start_date) },
          { header: 'Expiry Date', cell: (s) => day(s.expiry_date) },
          { header: 'Next Renewal', cell: (s) => (s.next_renewal_date ? day(s.next_renewal_date) : '—') },
          { header: 'Actions', cell: (s) => <CoinCancelRequest subscription={s} /> },
        ]}
      />
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

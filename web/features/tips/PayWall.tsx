/** The pay wall over the player: tip the owed coins to watch (spec part 1 §2 Stream view pay wall, §6). */
import { useState } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { useSkinPath } from '../../app/skin';
import { Button, ButtonLink } from '../../ui/Button';
import { CoinIcon, LockIcon } from '../../ui/icons';
import { useSession } from '../accounts/api';
import { LoginPrompt } from '../accounts/LoginPrompt';
import { useBalance } from '../wallet/api';
import { formatCoins } from '../wallet/money';
import { SubscriberDiscount } from './SubscriberDiscount';
import { useTipping } from './use-tipping';
import styles from './tips.module.css';

type WalledStream = Pick<StreamInfo, 'stream_id' | 'username' | 'thumbnail_url' | 'viewer_spend'> & Partial<Pick<StreamInfo, 'subscribed' | 'tip_subscriber_discount' | 'tip_viewer_min_amount'>>;

export function PayWall({ stream, owed }: { stream: WalledStream; owed: number }) {
  const session = useSession();
  const skinPath = useSkinPath();
  const [loginOpen, setLoginOpen] = useState(false);
  const tipping = useTipping(stream, { onGuest: () => setLoginOpen(true) });
  const balance = useBalance(session.isLoggedIn);
  const coins = balance.data?.CON;
  const short = coins !== undefined && coins < owed;
  return (
    <div className={styles.wall} role="region" aria-label="Pay wall">
      {stream.thumbnail_url && <img className={styles.wallBackdrop} src={stream.thumbnail_url} alt="" />}
      <div className={styles.wallCard}>
        <span className={styles.wallIcon}>
          <LockIcon size={28} />
        </span>
        <h2 className={styles.wallTitle}>This is a paid stream</h2>
        <p>
          Tip <strong>{formatCoins(owed)}</strong> to {stream.username} to watch.
          {stream.viewer_spend.amount > 0 && <> You have tipped {formatCoins(stream.viewer_spend.amount)} already.</>}
        </p>
        <SubscriberDiscount stream={stream} />
        <Button size="lg" icon={<CoinIcon size={20} />} loading={tipping.sending} onClick={() => tipping.click(owed)}>
          Tip {formatCoins(owed)}
        </Button>
        {session.isLoggedIn && (
          <p className={styles.wallBalance}>
            Your balance: {coins === undefined ? '…' : formatCoins(coins)}
            <ButtonLink to={skinPath('/user/account/deposit-coins')} variant={short ? 'secondary' : 'ghost'} size="sm" icon={<CoinIcon size={16} />}>
              Get Coins
            </ButtonLink>
          </p>
        )}
        {short && <p className={styles.wallShort}>You need {formatCoins(owed - coins)} more.</p>}
      </div>
      {tipping.dialogs}
      <LoginPrompt open={loginOpen} onOpenChange={setLoginOpen} />
    </div>
  );
}

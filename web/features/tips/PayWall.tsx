/** The pay wall over the player: tip the owed coins to watch (spec part 1 §2 Stream view pay wall, §6). */
import { useState } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { useSkinPath } from '../../app/skin';
import { Button, ButtonLink } from '../../ui/Button';
import { CoinIcon } from '../../ui/icons';
import { PayWallCard } from '../../ui/PayWallCard';
import { useSession, LoginPrompt } from '../accounts';
import { useBalance } from '../wallet';
import { formatCoins } from '../../../common/rules/wallet-amounts';
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
    <>
      <PayWallCard label="Pay wall" title="This is a paid stream" backdrop={stream.thumbnail_url} shape="player">
        <p>
          Tip <strong>{formatCoins(owed)}</strong> to {stream.username} to watch.
          {stream.viewer_spend.amount > 0 && <> You have tipped {formatCoins(stream.viewer_spend.amount)} already.</>}
        </p>
        <SubscriberDiscount stream={stream} />
        <Button size="lg" icon={<CoinIcon size={20} />} loading={tipping.sending} onClick={() => tipping.click({ amount: owed })}>
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
      </PayWallCard>
      {tipping.dialogs}
      <LoginPrompt open={loginOpen} onOpenChange={setLoginOpen} />
    </>
  );
}

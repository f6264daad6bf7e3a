/** Tips over the video: a coin burst per TIP (small, medium, large) and the owner's 3 s "tip received" indicator. */
import { useCallback, useState, useSyncExternalStore } from 'react';
import type { CSSProperties } from 'react';
import { createPortal } from 'react-dom';
import { useLater } from '../../ui/use-later';
import { CoinIcon } from '../../ui/icons';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { TIP_RECEIVED_MS, tipSize } from './tip-flow';
import type { TipEvent, TipSize } from './tip-flow';
import styles from './tips.module.css';

const BURST_MS: Record<TipSize, number> = { small: 2_200, medium: 3_000, large: 4_000 };
const COINS_PER_BURST: Record<TipSize, number> = { small: 3, medium: 8, large: 16 };
/** More bursts at once than this are not drawn (a flood of tips stays readable). */
const MAX_BURSTS = 6;

interface Burst extends TipEvent {
  id: number;
  size: TipSize;
}

let burstIds = 0;

export function useTipAnimations() {
  const [bursts, setBursts] = useState<Burst[]>([]);
  const [received, setReceived] = useState<Burst | null>(null);
  const later = useLater();

  /** A TIP arrived; `forMe` when the viewer is the stream's owner (the indicator). */
  const add = useCallback(
    (event: TipEvent, forMe: boolean) => {
      const burst: Burst = { ...event, id: ++burstIds, size: tipSize(event.coins) };
      setBursts((current) => [...current, burst].slice(-MAX_BURSTS));
      later(() => setBursts((current) => current.filter((b) => b.id !== burst.id)), BURST_MS[burst.size]);
      if (forMe) {
        setReceived(burst);
        later(() => setReceived((current) => (current?.id === burst.id ? null : current)), TIP_RECEIVED_MS);
      }
    },
    [later],
  );
  return { bursts, received, add };
}

function subscribeToDom(notify: () => void): () => void {
  const observer = new MutationObserver(notify);
  observer.observe(document.body, { childList: true, subtree: true });
  return () => observer.disconnect();
}

export function TipAnimations({ slotId, bursts, received }: { slotId: string; bursts: readonly Burst[]; received: Burst | null }) {
  const slot = useSyncExternalStore(subscribeToDom, () => document.getElementById(slotId), () => null);
  if (!slot || (bursts.length === 0 && !received)) return null;
  return createPortal(
    <div className={styles.tipLayer}>
      {bursts.map((burst) => (
        <div key={burst.id} className={`${styles.burst} ${styles[burst.size]}`} aria-hidden="true">
          {Array.from({ length: COINS_PER_BURST[burst.size] }, (_, i) => (
            <span key={i} className={styles.flyingCoin} style={{ '--i': i, '--n': COINS_PER_BURST[burst.size] } as CSSProperties}>
              <CoinIcon size={burst.size === 'large' ? 30 : burst.size === 'medium' ? 24 : 18} />
            </span>
          ))}
          <span className={styles.burstLabel}>
            <strong>{burst.name}</strong> +{formatCoins(burst.coins)}
          </span>
        </div>
      ))}
      {received && (
        <p className={styles.received} role="status">
          <CoinIcon size={18} /> {received.name} tipped you {formatCoins(received.coins)}!
        </p>
      )}
    </div>,
    slot,
  );
}

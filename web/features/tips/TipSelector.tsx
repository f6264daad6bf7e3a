/** The Tip button of the stream page: hover (or click) lists the quick amounts (spec part 1 §2 Tip selector, part 2 §9). */
import { Popover } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { QUICK_TIPS } from '../../../common/api/tips';
import { Button } from '../../ui/Button';
import { CoinIcon } from '../../ui/icons';
import { useSession } from '../accounts/api';
import { useTipping } from './use-tipping';
import styles from './tips.module.css';

const CLOSE_DELAY_MS = 250;

interface TipSelectorProps {
  stream: Pick<StreamInfo, 'stream_id' | 'is_owner'>;
  onGuest: () => void;
  paused?: boolean;
}

/** Hidden on one's own stream; guests get the login prompt instead of the list. */
export function TipSelector({ stream, onGuest, paused = false }: TipSelectorProps) {
  const session = useSession();
  const tipping = useTipping(stream, { onGuest, paused });
  const [open, setOpen] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
  }, []);
  if (stream.is_owner) return null;

  const stay = () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
    closeTimer.current = null;
  };
  const hoverOpen = (event: React.PointerEvent) => {
    if (event.pointerType !== 'mouse' || !session.isLoggedIn) return;
    stay();
    setOpen(true);
  };
  const hoverClose = (event: React.PointerEvent) => {
    if (event.pointerType !== 'mouse') return;
    stay();
    closeTimer.current = setTimeout(() => setOpen(false), CLOSE_DELAY_MS);
  };

  return (
    <>
      <Popover.Root
        open={open}
        onOpenChange={(next) => {
          if (next && !session.isLoggedIn) return onGuest();
          setOpen(next);
        }}
      >
        <Popover.Trigger asChild>
          <Button variant="primary" size="sm" icon={<CoinIcon size={16} />} loading={tipping.sending} onPointerEnter={hoverOpen} onPointerLeave={hoverClose}>
            Tip
          </Button>
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className={styles.popover} side="top" align="center" sideOffset={6} onPointerEnter={stay} onPointerLeave={hoverClose}>
            <p className={styles.popoverTitle}>Send a tip</p>
            <ul className={styles.amounts}>
              {QUICK_TIPS.map((amount) => (
                <li key={amount}>
                  <button
                    type="button"
                    className={styles.amount}
                    onClick={() => {
                      setOpen(false);
                      tipping.click(amount);
                    }}
                  >
                    <CoinIcon size={16} />
                    {amount} Coins
                  </button>
                </li>
              ))}
            </ul>
            <Popover.Arrow className={styles.arrow} />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {tipping.dialogs}
    </>
  );
}

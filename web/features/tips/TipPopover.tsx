/**
 * The Tip button's list, loaded when the button is first hovered or clicked (TipSelector.tsx): the
 * broadcaster's tip menu when they have one, the quick amounts (spec part 1 §2 Tip selector, part 2 §9),
 * then any other whole amount within the tip rules and an optional message that goes with whichever tip
 * is sent.
 */
import { Popover } from 'radix-ui';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { QUICK_TIPS, TIP_MESSAGE_MAX, tipAmount } from '../../../common/api/tips';
import type { TipMenuItem } from '../../../common/api/tips';
import { Button } from '../../ui/Button';
import { TipButton } from './TipButton';
import { CoinIcon } from '../../ui/icons';
import { useSession } from '../accounts';
import { tipMenuKeys } from './menu-api';
import { menuRefusal } from './menu-queue';
import { SubscriberDiscount } from './SubscriberDiscount';
import { TipMenuPicker } from './TipMenuPicker';
import { useTipping } from './use-tipping';
import styles from './tips.module.css';

const CLOSE_DELAY_MS = 250;

export interface TipSelectorProps {
  stream: Pick<StreamInfo, 'stream_id' | 'user_id' | 'is_owner'> & Partial<Pick<StreamInfo, 'subscribed' | 'tip_subscriber_discount' | 'tip_viewer_min_amount'>>;
  onGuest: () => void;
  paused?: boolean;
  /** The chat input's coin-only button. */
  compact?: boolean;
}

/** The Tip button with its list, open at first: it loads when someone asked for the list. */
export function TipPopover({ stream, onGuest, paused = false, compact = false }: TipSelectorProps) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(true);
  const [menuRefused, setMenuRefused] = useState<string | null>(null);
  // A menu tip refused for the menu's sake (price changed, action gone): the list opens again over the menu read again.
  const tipping = useTipping(stream, {
    onGuest,
    paused,
    onRefused: (error, tip) => {
      const refusal = tip.item ? menuRefusal(error) : null;
      if (refusal === null) return false;
      void queryClient.invalidateQueries({ queryKey: tipMenuKeys.menu(stream.user_id) });
      setMenuRefused(refusal);
      setOpen(true);
      return true;
    },
  });
  const [custom, setCustom] = useState('');
  const [customError, setCustomError] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const ids = useId();
  const content = useRef<HTMLDivElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
  }, []);
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
    // Someone typing an amount or a message keeps the list open when the pointer wanders off.
    if (content.current?.contains(document.activeElement)) return;
    stay();
    closeTimer.current = setTimeout(close, CLOSE_DELAY_MS);
  };
  /** Closed, the list forgets why the last pick was refused. */
  function close() {
    setOpen(false);
    setMenuRefused(null);
  }

  /** Sends `amount` (for the menu's `item`) with the message, if any, and starts the next tip from a clean form. */
  const tip = (amount: number, item?: TipMenuItem) => {
    close();
    tipping.click({ amount, message: message.trim() || undefined, item });
    setMessage('');
    setCustom('');
    setCustomError(null);
  };

  const onCustom = (event: FormEvent) => {
    event.preventDefault();
    const parsed = tipAmount.safeParse(custom.trim());
    if (!parsed.success) return setCustomError(parsed.error.issues[0]?.message ?? null);
    tip(parsed.data);
  };

  return (
    <>
      <Popover.Root
        open={open}
        onOpenChange={(next) => {
          if (next && !session.isLoggedIn) return onGuest();
          if (next) setOpen(true);
          else close();
        }}
      >
        <Popover.Trigger asChild>
          <TipButton compact={compact} loading={tipping.sending} onPointerEnter={hoverOpen} onPointerLeave={hoverClose} />
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content ref={content} className={styles.popover} side="top" align="center" sideOffset={6} collisionPadding={8} onPointerEnter={stay} onPointerLeave={hoverClose}>
            <p className={styles.popoverTitle}>Send a tip</p>
            <SubscriberDiscount stream={stream} />
            <TipMenuPicker broadcasterId={stream.user_id} refusal={menuRefused} onPick={(item) => tip(item.price, item)} />
            <ul className={styles.amounts}>
              {QUICK_TIPS.map((amount) => (
                <li key={amount}>
                  <button
                    type="button"
                    className={styles.amount}
                    onClick={() => tip(amount)}
                  >
                    <CoinIcon size={16} />
                    {amount} Coins
                  </button>
                </li>
              ))}
            </ul>
            <form className={styles.customForm} onSubmit={onCustom} noValidate aria-label="Other amount">
              <div className={styles.customRow}>
                <label className={styles.customLabel}>
                  Other amount
                  <input
                    className={styles.customInput}
                    inputMode="numeric"
                    placeholder="Coins"
                    value={custom}
                    onChange={(e) => {
                      setCustom(e.target.value);
                      setCustomError(null);
                    }}
                    aria-invalid={customError ? true : undefined}
                    aria-describedby={customError ? `${ids}-error` : undefined}
                  />
                </label>
                <Button type="submit" size="sm" className={styles.customSend}>
                  Send Tip
                </Button>
              </div>
              {customError && (
                <p id={`${ids}-error`} className={styles.customError} role="alert">
                  {customError}
                </p>
              )}
              <label className={styles.customLabel}>
                Message (optional)
                <input
                  className={styles.customInput}
                  value={message}
                  maxLength={TIP_MESSAGE_MAX}
                  placeholder="Say something with your tip"
                  onChange={(e) => setMessage(e.target.value)}
                />
              </label>
            </form>
            <Popover.Arrow className={styles.arrow} />
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
      {tipping.dialogs}
    </>
  );
}

/**
 * The broadcaster's tip menu at the top of the Tip button's list (TipPopover.tsx): each action at its
 * price, picked to tip exactly that. Read each time the list opens (the broadcaster may change it during
 * the show); a refusal of the last pick (price changed, action gone) is said over the menu read again.
 */
import { useId } from 'react';
import type { TipMenuItem } from '../../../common/api/tips';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { CoinIcon } from '../../ui/icons';
import { useTipMenu } from './menu-api';
import styles from './TipMenuPicker.module.css';

interface TipMenuPickerProps {
  broadcasterId: number;
  /** Why the last pick was refused, from the server. */
  refusal: string | null;
  onPick: (item: TipMenuItem) => void;
}

export function TipMenuPicker({ broadcasterId, refusal, onPick }: TipMenuPickerProps) {
  const menu = useTipMenu(broadcasterId);
  const titleId = useId();
  const items = menu.data ?? [];
  if (items.length === 0 && !refusal) return null;
  return (
    <section className={styles.picker} aria-labelledby={titleId}>
      <p id={titleId} className={styles.pickerTitle}>
        Tip menu
      </p>
      {refusal && (
        <p className={styles.refusal} role="alert">
          {refusal}. {items.length > 0 ? 'The menu below is up to date: pick again.' : 'The menu is empty now.'}
        </p>
      )}
      {items.length > 0 && (
        <ul className={styles.menuItems}>
          {items.map((item) => (
            <li key={item.item_id}>
              <button type="button" className={styles.menuItem} onClick={() => onPick(item)}>
                <span className={styles.menuLabel}>{item.label}</span>
                <span className={styles.menuPrice}>
                  <CoinIcon size={14} />
                  {formatCoins(item.price)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

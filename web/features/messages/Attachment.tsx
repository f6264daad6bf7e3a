/**
 * A message's attachment (decision 0088): "Attach" chooses a photo or video from the vault (or adds one
 * there first); chosen, it shows with Remove and, for a creator, the price the recipient pays to see it.
 */
import { useId, useState } from 'react';
import type { VaultItem } from '../../../common/api/vault';
import { fill, MSG } from '../../../common/messages';
import { DM, isMessagePrice } from '../../../common/rules/messages';
import { PRICE_STEP } from '../../../common/rules/pay-wall';
import { Button } from '../../ui/Button';
import { ImageIcon, TrashIcon } from '../../ui/icons';
import { VaultPicker } from '../vault';
import styles from './Attachment.module.css';

export interface AttachedMedium {
  item: VaultItem;
  price: number;
}

/** Why a price may not be sent (null: it may). */
export const priceProblem = (price: number): string | null => (isMessagePrice(price) ? null : fill(MSG.messagePriceRange, { max: DM.priceMax }));

export function AttachButton({ onAttach, disabled }: { onAttach: (item: VaultItem) => void; disabled?: boolean }) {
  const [picking, setPicking] = useState(false);
  return (
    <>
      <Button variant="ghost" icon={<ImageIcon size={18} />} onClick={() => setPicking(true)} disabled={disabled} aria-label="Attach a photo or video">
        <span className={styles.attachLabel}>Attach</span>
      </Button>
      <VaultPicker open={picking} onClose={() => setPicking(false)} max={1} onPick={(items) => items[0] && onAttach(items[0])} />
    </>
  );
}

interface AttachedProps {
  attached: AttachedMedium;
  /** Creators set a price; others send media free. */
  priced: boolean;
  onChange: (attached: AttachedMedium | null) => void;
}

export function Attached({ attached, priced, onChange }: AttachedProps) {
  const priceId = useId();
  const errorId = useId();
  const { item, price } = attached;
  const problem = priceProblem(price);
  return (
    <div className={styles.attached}>
      {item.thumb_url ? <img src={item.thumb_url} alt="" className={styles.thumb} /> : <span className={styles.thumb}>{item.type === 'video' ? 'Video' : 'Photo'}</span>}
      <span className={styles.what}>{item.type === 'video' ? 'Video' : 'Photo'} attached</span>
      {priced && (
        <label className={styles.price} htmlFor={priceId}>
          Price (coins, 0 = free)
          <input
            id={priceId}
            type="number"
            inputMode="numeric"
            min={0}
            max={DM.priceMax}
            step={PRICE_STEP}
            value={price}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? errorId : undefined}
            onChange={(event) => onChange({ item, price: Math.max(0, Math.floor(Number(event.target.value) || 0)) })}
          />
        </label>
      )}
      <Button variant="ghost" size="sm" icon={<TrashIcon size={16} />} onClick={() => onChange(null)}>
        Remove
      </Button>
      {problem && (
        <p id={errorId} className={styles.problem} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/**
 * The vault's media as a grid of tiles: a photo's tile, a video's poster with its length, "Processing…"
 * while a video is transcoded. With `onToggle` each ready tile is a checkbox-like button (a picker).
 */
import type { VaultItem } from '../../../common/api/vault';
import { formatDuration } from '../../../common/rules/format';
import { CheckIcon, PlayIcon } from '../../ui/icons';
import styles from './Vault.module.css';

interface VaultGridProps {
  items: readonly VaultItem[];
  chosen?: ReadonlySet<number>;
  onToggle?: (item: VaultItem) => void;
}

export function VaultGrid({ items, chosen, onToggle }: VaultGridProps) {
  return (
    <ul className={styles.grid} aria-label="Vault">
      {items.map((item) => (
        <li key={item.media_id}>
          {onToggle ? (
            <button
              type="button"
              className={styles.tile}
              aria-pressed={chosen?.has(item.media_id) ?? false}
              disabled={item.state !== 'ready'}
              onClick={() => onToggle(item)}
            >
              <Artwork item={item} />
              {chosen?.has(item.media_id) && (
                <span className={styles.check} aria-hidden="true">
                  <CheckIcon size={16} />
                </span>
              )}
            </button>
          ) : (
            <div className={styles.tile}>
              <Artwork item={item} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

function Artwork({ item }: { item: VaultItem }) {
  const what = item.type === 'video' ? 'Video' : 'Photo';
  if (item.state !== 'ready' || !item.thumb_url) {
    return <span className={styles.pending}>{item.state === 'failed' ? `${what} failed` : `${what} processing…`}</span>;
  }
  return (
    <>
      <img src={item.thumb_url} alt={`${what} from ${new Date(item.created_time).toLocaleDateString()}`} loading="lazy" className={styles.image} />
      {item.type === 'video' && (
        <span className={styles.length}>
          <PlayIcon size={12} /> {item.duration === null ? '' : formatDuration(item.duration)}
        </span>
      )}
    </>
  );
}

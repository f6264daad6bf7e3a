import { LoadOnUse, lazyPage } from '../../app/lazy-page';
import { SmileIcon } from '../../ui/icons';
import type { EmojiPickerProps } from './EmojiPicker';
import styles from './ChatInput.module.css';

const EmojiPicker = lazyPage(() => import('./EmojiPicker'), 'EmojiPicker');

/** The chat's Emoji button; the picker (a Radix popover) loads when it is first clicked (decision 0032). */
export function EmojiButton(props: EmojiPickerProps) {
  return (
    <LoadOnUse
      standIn={(use) => (
        <button type="button" className={styles.iconButton} aria-label="Emoji" disabled={props.disabled} onClick={use}>
          <SmileIcon />
        </button>
      )}
    >
      <EmojiPicker {...props} />
    </LoadOnUse>
  );
}

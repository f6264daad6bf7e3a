import { Popover } from 'radix-ui';
import { useState } from 'react';
import styles from './ChatInput.module.css';
import { SmileIcon } from '../../ui/icons';

export interface EmojiPickerProps {
  emoji: readonly string[];
  onPick: (emoji: string) => void;
  disabled?: boolean;
}

/** The Emoji button and its grid, open at first: it loads when the button is first clicked (EmojiButton.tsx). Picking keeps it open for more. */
export function EmojiPicker({ emoji, onPick, disabled = false }: EmojiPickerProps) {
  const [open, setOpen] = useState(true);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger className={styles.iconButton} aria-label="Emoji" disabled={disabled}>
        <SmileIcon />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className={styles.emojiPanel} side="top" align="start" sideOffset={8} aria-label="Emoji">
          <div className={styles.emojiGrid}>
            {emoji.map((e) => (
              <button key={e} type="button" className={styles.emoji} onClick={() => onPick(e)} aria-label={`Insert ${e}`}>
                {e}
              </button>
            ))}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

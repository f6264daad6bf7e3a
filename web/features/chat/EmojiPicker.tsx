import { Popover } from 'radix-ui';
import { useState } from 'react';
import styles from './ChatInput.module.css';
import { SmileIcon } from '../../ui/icons';
import { useEmotes } from './emotes-api';

export interface EmojiPickerProps {
  emoji: readonly string[];
  onPick: (emoji: string) => void;
  disabled?: boolean;
  /** The broadcaster whose emotes the picker offers first (their subscribers may use them). */
  emotesOf?: number | undefined;
}

/** The Emoji button and its grid, open at first: it loads when the button is first clicked (EmojiButton.tsx). Picking keeps it open for more. */
export function EmojiPicker({ emoji, onPick, disabled = false, emotesOf }: EmojiPickerProps) {
  const [open, setOpen] = useState(true);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger className={styles.iconButton} aria-label="Emoji" disabled={disabled}>
        <SmileIcon />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className={styles.emojiPanel} side="top" align="start" sideOffset={8} aria-label="Emoji">
          {emotesOf !== undefined && <ChannelEmotes userId={emotesOf} onPick={onPick} />}
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

/** The broadcaster's emotes, when they have any: picking one writes `:code:`. */
function ChannelEmotes({ userId, onPick }: { userId: number; onPick: (text: string) => void }) {
  const emotes = useEmotes(userId);
  if (!emotes.data || emotes.data.length === 0) return null;
  return (
    <div className={styles.emojiGrid} role="group" aria-label="Channel emotes">
      {emotes.data.map((emote) => (
        <button key={emote.code} type="button" className={styles.emoji} onClick={() => onPick(`:${emote.code}: `)} aria-label={`Insert :${emote.code}:`} title={`:${emote.code}:`}>
          <img src={emote.url} alt="" width={28} height={28} />
        </button>
      ))}
    </div>
  );
}

import { useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { CHAT_TEXT_MAX } from '../../../common/realtime-channels';
import { HeartIcon, SendIcon } from '../../ui/icons';
import { COUNTER_FROM, chatTextToSend } from './chat-lines';
import { EmojiButton } from './EmojiButton';
import { insertAt } from './emoji';
import styles from './ChatInput.module.css';

interface ChatInputProps {
  /** Why nobody can write here right now (chat disabled, priority chat refused); the input shows it. */
  disabledNote: string | null;
  /** The connection can take a line now. */
  ready: boolean;
  isGuest: boolean;
  onGuest: () => void;
  /** Resolves true when the server took the line (the input then empties). */
  onSend: (text: string) => Promise<boolean>;
  /** Null: no like button (the owner's own stream). */
  onLike: (() => void) | null;
  /** The tip button, after like (none on the owner's own stream). */
  tip?: ReactNode;
  emoji: readonly string[];
  /** The broadcaster whose emotes the emoji picker offers. */
  emotesOf?: number;
  /** A refusal or note under the input (like limit, paused stream, too fast...). */
  notice: string | null;
}

/** Emoji, text, send, like and tip in one row (spec part 1 §2: the mobile chat input has tip and like buttons). */
export function ChatInput({ disabledNote, ready, isGuest, onGuest, onSend, onLike, tip, emoji, emotesOf, notice }: ChatInputProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLInputElement | null>(null);
  const length = [...text].length;
  const canWrite = disabledNote === null;

  async function submit() {
    if (isGuest) return onGuest();
    const line = chatTextToSend(text);
    if (!canWrite || !ready || sending || line === '') return;
    setSending(true);
    const sent = await onSend(line);
    setSending(false);
    if (sent) setText('');
    input.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    } else if (isGuest && event.key.length === 1) {
      event.preventDefault();
      onGuest();
    }
  }

  function pick(e: string) {
    if (isGuest) return onGuest();
    const el = input.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = insertAt(text, e, start, end, CHAT_TEXT_MAX);
    setText(next.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.caret, next.caret);
    });
  }

  return (
    <div className={styles.composer}>
      <form
        className={styles.row}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className={styles.field}>
          <EmojiButton emoji={emoji} emotesOf={emotesOf} onPick={pick} disabled={!canWrite} />
          <input
            ref={input}
            className={styles.input}
            type="text"
            value={text}
            onChange={(event) => setText([...event.target.value].slice(0, CHAT_TEXT_MAX).join(''))}
            onKeyDown={onKeyDown}
            onClick={isGuest ? onGuest : undefined}
            readOnly={isGuest}
            disabled={!canWrite}
            placeholder={canWrite ? (isGuest ? 'Log in to chat' : 'Say something…') : 'Chat unavailable'}
            aria-label="Chat message"
            aria-describedby={length >= COUNTER_FROM ? 'chat-counter' : undefined}
            maxLength={CHAT_TEXT_MAX * 2}
            enterKeyHint="send"
            autoComplete="off"
          />
          {length >= COUNTER_FROM && (
            <span id="chat-counter" className={`${styles.counter} ${length >= CHAT_TEXT_MAX ? styles.counterFull : ''}`}>
              {length}/{CHAT_TEXT_MAX}
            </span>
          )}
        </div>
        <button type="submit" className={styles.sendButton} data-empty={text.trim() === ''} aria-label="Send" disabled={!canWrite || sending || (!isGuest && (!ready || text.trim() === ''))}>
          <SendIcon size={18} />
        </button>
        {onLike && (
          <button type="button" className={styles.likeButton} aria-label="Like" onClick={onLike}>
            <HeartIcon size={20} />
          </button>
        )}
        {tip}
      </form>
      {(notice ?? disabledNote) && (
        <p className={styles.notice} role="status">
          {notice ?? disabledNote}
        </p>
      )}
    </div>
  );
}

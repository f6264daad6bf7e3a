import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { LoadOnUse, lazyPage } from '../../app/lazy-page';
import { Avatar } from '../../ui/Avatar';
import { MoreIcon, StarIcon } from '../../ui/icons';
import { useTranslation } from './api';
import { interleave, showsTranslation } from './chat-lines';
import type { ChatLine } from './chat-lines';
import { EmoteText } from './EmoteText';
import styles from './ChatLog.module.css';

export interface TranslateState {
  lang: string;
  /** Lines from this seq on are translated (the last few when the toggle went on, then every new one). */
  fromSeq: number;
  onFailed: () => void;
}

/** A line this page adds to its own list alone (a chat ad): drawn by its feature, placed by `seq` (localLineSeq). */
export interface LocalLine {
  key: string;
  seq: number;
  content: ReactNode;
}

interface ChatLogProps {
  lines: readonly ChatLine[];
  /** The page's own lines among the channel's. */
  localLines?: readonly LocalLine[];
  label: string;
  empty: string;
  translate: TranslateState | null;
  /** The stream whose chat the reader moderates: its viewers' lines get the moderators' menu. Null for everyone else. */
  moderatedStreamId: number | null;
  myUserId: number | null;
}

const NO_LOCAL_LINES: readonly LocalLine[] = [];

/** Stuck to the bottom when within this many pixels of it. */
const STICK_PX = 32;

/** The chat window: newest at the bottom, follows new lines unless the reader scrolled up. */
export function ChatLog({ lines, localLines = NO_LOCAL_LINES, label, empty, translate, moderatedStreamId, myUserId }: ChatLogProps) {
  const list = useRef<HTMLDivElement | null>(null);
  const [stuck, setStuck] = useState(true);
  /** The newest line when the reader scrolled up: anything after it is unread. */
  const [readUpTo, setReadUpTo] = useState<string | undefined>(undefined);
  const items = interleave(lines, localLines);
  const last = items[items.length - 1];
  const lastKey = last && ('line' in last ? last.line.key : last.local.key);
  const unread = !stuck && lastKey !== readUpTo;

  useLayoutEffect(() => {
    const el = list.current;
    if (el && stuck) el.scrollTop = el.scrollHeight;
  }, [lastKey, stuck]);

  // A translation arriving under the last line should not leave it half hidden.
  useEffect(() => {
    const el = list.current;
    if (!el || !stuck) return;
    const observer = new ResizeObserver(() => {
      el.scrollTop = el.scrollHeight;
    });
    for (const child of Array.from(el.children)) observer.observe(child);
    return () => observer.disconnect();
  }, [lines, localLines, stuck]);

  function onScroll() {
    const el = list.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_PX;
    if (stuck && !atBottom) setReadUpTo(lastKey);
    setStuck(atBottom);
  }

  function jumpToLatest() {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
    setStuck(true);
  }

  return (
    <div className={styles.wrap}>
      <div ref={list} className={styles.log} role="log" aria-live="polite" aria-label={label} onScroll={onScroll} tabIndex={0}>
        {items.length === 0 && <p className={styles.empty}>{empty}</p>}
        {items.map((item) => {
          if ('local' in item) return <div key={item.local.key}>{item.local.content}</div>;
          const { line } = item;
          return (
            <Line
              key={line.key}
              line={line}
              translate={translate && line.kind === 'comment' && line.seq >= translate.fromSeq ? translate : null}
              moderatedStreamId={moderatedStreamId !== null && line.kind === 'comment' && line.userId !== null && !line.isOwner && line.userId !== myUserId ? moderatedStreamId : null}
            />
          );
        })}
      </div>
      {unread && (
        <button type="button" className={styles.jump} onClick={jumpToLatest}>
          New messages ↓
        </button>
      )}
    </div>
  );
}

function Line({ line, translate, moderatedStreamId }: { line: ChatLine; translate: TranslateState | null; moderatedStreamId: number | null }) {
  if (line.kind === 'system') return <p className={styles.system}>{line.text}</p>;
  const tip = line.kind === 'tip';
  return (
    <div className={`${styles.line} ${tip ? styles.tip : ''} ${line.isPriority ? styles.priority : ''}`}>
      <Avatar name={line.name} src={line.avatar} size={28} />
      <div className={styles.body}>
        <span className={styles.sender}>
          <span className={`${styles.name} ${line.isOwner ? styles.ownerName : ''}`}>{line.name}</span>
          {line.isOwner && <span className={styles.badge}>Streamer</span>}
          {line.isPriority && (
            <span className={styles.priorityMark} title="Priority">
              <StarIcon size={12} />
              <span className="visually-hidden">Priority</span>
            </span>
          )}
        </span>{' '}
        <span className={tip ? styles.tipText : styles.text}>
          <EmoteText text={line.text} emotes={line.emotes} />
        </span>
        {line.request && <span className={styles.request}>Requested: {line.request}</span>}
        {translate && <Translation text={line.text} translate={translate} />}
      </div>
      {moderatedStreamId !== null && <LineMenu line={line} streamId={moderatedStreamId} />}
    </div>
  );
}

function Translation({ text, translate }: { text: string; translate: TranslateState }) {
  const query = useTranslation(text, translate.lang, true);
  const { onFailed } = translate;
  const failed = query.isError;
  useEffect(() => {
    if (failed) onFailed();
  }, [failed, onFailed]);
  if (!showsTranslation(text, query.data)) return null;
  return (
    <span className={styles.translation} lang={translate.lang}>
      {query.data}
    </span>
  );
}

// The moderators' menu, its library (Radix's dropdown) and its actions load when a moderator first opens one (decision 0032).
const ChatLineMenu = lazyPage(() => import('./ChatLineMenu'), 'ChatLineMenu');

function LineMenu({ line, streamId }: { line: ChatLine; streamId: number }) {
  return (
    <LoadOnUse
      standIn={(use) => (
        <button type="button" className={styles.menuButton} aria-label={`Actions for ${line.name}`} aria-haspopup="menu" onClick={use}>
          <MoreIcon size={16} />
        </button>
      )}
    >
      <ChatLineMenu line={line} streamId={streamId} />
    </LoadOnUse>
  );
}

/**
 * One conversation: its messages oldest first ("Load earlier" reads the page before), the member's own on
 * the right, Seen under their last one once the partner read it, the partner typing, and the composer (or
 * why the member may not write); a photo or video shows in its message, locked until unlocked when paid. Opening it, and each message of the partner's while it is open, marks it
 * read. The header's menu blocks or unblocks the partner; each message received can be reported.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { DirectMessage, MessagePartner } from '../../../common/api/messages';
import { fill, MSG } from '../../../common/messages';
import { failureMessage } from '../../api/field-errors';
import { isApiError } from '../../api/client';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Avatar } from '../../ui/Avatar';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { useReadThread, useStillTyping, useThread } from './api';
import type { Thread } from './api';
import { BackToList } from './BackToList';
import { Composer } from './Composer';
import { MessageMedia } from './MessageMedia';
import { ReportMessageModal } from './ReportMessageModal';
import { ThreadMenu } from './ThreadMenu';
import { partnerReadId, seenMessageId, threadMessages } from './thread-state';
import styles from './messages.module.css';

/** `typingUntil`: until when the partner shows as typing (0: not typing). */
export function ThreadView({ me, creator, partnerId, typingUntil }: { me: number; creator: boolean; partnerId: number; typingUntil: number }) {
  const thread = useThread(partnerId);
  if (thread.isPending) {
    return (
      <section className={styles.thread} aria-label="Conversation" aria-busy="true">
        <ThreadBar />
        <div className={styles.centered}>
          <Spinner label="Loading the conversation" />
        </div>
      </section>
    );
  }
  if (thread.isError) {
    return (
      <section className={styles.thread} aria-label="Conversation">
        <ThreadBar />
        <div className={styles.centered}>
          <Alert>{isApiError(thread.error, 'not_found') ? 'This member cannot be found.' : failureMessage(thread.error)}</Alert>
        </div>
      </section>
    );
  }
  const pages = thread.data.pages;
  return (
    <Conversation
      me={me}
      creator={creator}
      typingUntil={typingUntil}
      newest={pages[0]!}
      messages={threadMessages(pages)}
      readId={partnerReadId(pages)}
      earlier={{ hasNextPage: thread.hasNextPage, isFetchingNextPage: thread.isFetchingNextPage, fetchNextPage: () => void thread.fetchNextPage() }}
    />
  );
}

function ThreadBar({ partner, children }: { partner?: MessagePartner; children?: ReactNode }) {
  return (
    <header className={styles.threadHeader}>
      <BackToList />
      {partner && (
        <SkinLink to={`/u/${partner.user_id}`} className={styles.partner}>
          <Avatar name={partner.username} src={partner.avatar} size={36} />
          <h2 className={styles.partnerTitle}>{partner.username}</h2>
        </SkinLink>
      )}
      {children}
    </header>
  );
}

interface ConversationProps {
  me: number;
  creator: boolean;
  typingUntil: number;
  newest: Thread;
  messages: DirectMessage[];
  readId: number;
  earlier: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => void };
}

function Conversation({ me, creator, typingUntil, newest, messages, readId, earlier }: ConversationProps) {
  const { partner } = newest;
  const typing = useStillTyping(typingUntil);
  const [reporting, setReporting] = useState<DirectMessage | null>(null);
  const [reported, setReported] = useState<ReadonlySet<number>>(new Set());
  const seenId = seenMessageId(messages, me, readId);
  const scroller = useStickToEnd(messages);
  useMarkRead(me, partner.user_id, messages.at(-1));

  return (
    <section className={styles.thread} aria-label={`Conversation with ${partner.username}`}>
      <ThreadBar partner={partner}>
        <ThreadMenu partner={partner} blocked={newest.blocked_by_me} />
      </ThreadBar>
      <div className={styles.scroller} ref={scroller}>
        {earlier.hasNextPage && (
          <div className={styles.earlier}>
            <Button variant="ghost" size="sm" loading={earlier.isFetchingNextPage} onClick={earlier.fetchNextPage}>
              Load earlier
            </Button>
          </div>
        )}
        {messages.length === 0 ? (
          <p className={`${styles.quiet} ${styles.centered}`}>{MSG.noMessagesYet}</p>
        ) : (
          <ol className={styles.messages} aria-label="Messages">
            {messages.map((message) => (
              <MessageItem
                key={message.id}
                me={me}
                message={message}
                author={message.sender_id === me ? null : partner.username}
                seen={message.id === seenId}
                reported={reported.has(message.id)}
                onReport={() => setReporting(message)}
              />
            ))}
          </ol>
        )}
      </div>
      <p className={styles.typing} role="status">
        {typing ? fill(MSG.memberTyping, { name: partner.username }) : ''}
      </p>
      {newest.may_write ? <Composer me={me} partner={partner} creator={creator} /> : <p className={styles.refusal}>{newest.refusal ?? MSG.messagingBlocked}</p>}
      <ReportMessageModal
        message={reporting}
        partner={partner}
        onClose={() => setReporting(null)}
        onReported={(id) => setReported((ids) => new Set(ids).add(id))}
      />
    </section>
  );
}

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/** The time of a message: today's by the clock, older ones with their day. */
function messageTime(iso: string): string {
  const at = new Date(iso);
  return at.toDateString() === new Date().toDateString() ? timeFormat.format(at) : dateTimeFormat.format(at);
}

interface MessageItemProps {
  me: number;
  message: DirectMessage;
  /** The partner's name for a message received; null for the member's own. */
  author: string | null;
  seen: boolean;
  reported: boolean;
  onReport: () => void;
}

function MessageItem({ me, message, author, seen, reported, onReport }: MessageItemProps) {
  const mine = author === null;
  return (
    <li className={`${styles.message} ${mine ? styles.mine : styles.theirs}`}>
      <div className={styles.bubble}>
        <span className="visually-hidden">{mine ? 'You: ' : `${author}: `}</span>
        <MessageMedia message={message} me={me} />
        {message.text && <p className={styles.text}>{message.text}</p>}
        <time className={styles.time} dateTime={message.time} title={new Date(message.time).toLocaleString()}>
          {messageTime(message.time)}
        </time>
      </div>
      {!mine &&
        (reported ? (
          <span className={styles.reported}>Reported</span>
        ) : (
          <button type="button" className={styles.report} aria-haspopup="dialog" onClick={onReport}>
            Report
          </button>
        ))}
      {seen && <p className={styles.seen}>{MSG.messageSeen}</p>}
    </li>
  );
}

/**
 * The scroller stays at the end as messages come, as long as the member was there (or wrote the newest),
 * and keeps its place when earlier messages are put above.
 */
function useStickToEnd(messages: readonly DirectMessage[]) {
  const ref = useRef<HTMLDivElement>(null);
  const before = useRef({ first: 0, last: 0, height: 0, atEnd: true });
  const first = messages[0]?.id ?? 0;
  const last = messages.at(-1)?.id ?? 0;
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const was = before.current;
    if (last !== was.last && was.atEnd) box.scrollTop = box.scrollHeight;
    else if (first !== was.first && last === was.last) box.scrollTop += box.scrollHeight - was.height;
    before.current = { first, last, height: box.scrollHeight, atEnd: box.scrollHeight - box.scrollTop - box.clientHeight < 80 };
  }, [first, last]);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const onScroll = () => {
      before.current.atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
      before.current.height = box.scrollHeight;
    };
    box.addEventListener('scroll', onScroll, { passive: true });
    return () => box.removeEventListener('scroll', onScroll);
  }, []);
  return ref;
}

/** Whether the page is shown (a message that comes while it is hidden is read once it shows). */
function usePageShown(): boolean {
  const [shown, setShown] = useState(() => document.visibilityState !== 'hidden');
  useEffect(() => {
    const update = () => setShown(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', update);
    return () => document.removeEventListener('visibilitychange', update);
  }, []);
  return shown;
}

/** Opening the conversation reads it up to its newest message; then each message of the partner's as it comes. */
function useMarkRead(me: number, partnerId: number, newest: DirectMessage | undefined) {
  const { mutate } = useReadThread(partnerId);
  const shown = usePageShown();
  const marked = useRef(0);
  useEffect(() => {
    if (!newest || !shown || newest.id <= marked.current) return;
    // The member's own message reads nothing new, but for the first look.
    if (marked.current !== 0 && newest.sender_id === me) return;
    marked.current = newest.id;
    mutate(newest.id);
  }, [me, newest, shown, mutate]);
}

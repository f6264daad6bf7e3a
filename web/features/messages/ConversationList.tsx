/** The member's conversations, the latest first: a search by name (debounced), pages with "Load more". */
import { useEffect, useId, useState } from 'react';
import type { ConversationSummary } from '../../../common/api/messages';
import { MSG } from '../../../common/messages';
import { relativeTime } from '../../../common/rules/format';
import { failureMessage } from '../../api/field-errors';
import { SkinLink } from '../../app/skin';
import { Alert } from '../../ui/Alert';
import { Avatar } from '../../ui/Avatar';
import { buttonClass } from '../../ui/Button';
import { MegaphoneIcon, SearchIcon } from '../../ui/icons';
import { LoadMore } from '../../ui/LoadMore';
import { Spinner } from '../../ui/Spinner';
import { useConversations } from './api';
import { conversationPath, MESSAGE_MANY_PATH } from './paths';
import { badgeText, listedConversations, previewOf } from './thread-state';
import styles from './messages.module.css';

/** A search is applied once typing pauses this long. */
const SEARCH_DELAY_MS = 300;

function useDebounced(text: string): string {
  const [applied, setApplied] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setApplied(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return applied;
}

/** `messageMany`: a creator's way to the panel of messages to many, and whether it is open (null: not a creator). */
export function ConversationList({ me, partnerId, messageMany }: { me: number; partnerId: number | null; messageMany: { open: boolean } | null }) {
  const headingId = useId();
  const [text, setText] = useState('');
  const search = useDebounced(text.trim());
  const list = useConversations(search);
  const conversations = list.data ? listedConversations(list.data.pages) : [];
  return (
    <section className={styles.list} aria-labelledby={headingId}>
      <header className={styles.listHeader}>
        <div className={styles.titleRow}>
          <h1 id={headingId} className={styles.title}>
            Messages
          </h1>
          {messageMany && (
            <SkinLink
              to={MESSAGE_MANY_PATH}
              className={buttonClass({ variant: 'secondary', size: 'sm' })}
              aria-current={messageMany.open ? 'page' : undefined}
            >
              <MegaphoneIcon size={16} />
              <span>Message many</span>
            </SkinLink>
          )}
        </div>
        <label className={styles.search}>
          <SearchIcon size={16} />
          <span className="visually-hidden">Search conversations</span>
          <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="Search by name" maxLength={50} autoComplete="off" />
        </label>
      </header>
      <div className={styles.listBody} aria-busy={list.isPending || undefined}>
        {list.isPending && <Spinner label="Loading your conversations" />}
        {list.isError && <Alert>{failureMessage(list.error)}</Alert>}
        {list.data && conversations.length === 0 && (
          <p className={styles.quiet}>{search ? `No conversation with a name starting “${search}”.` : MSG.noConversations}</p>
        )}
        {conversations.length > 0 && (
          <ul className={styles.conversations} aria-label="Conversations">
            {conversations.map((conversation) => (
              <ConversationItem key={conversation.partner.user_id} conversation={conversation} me={me} current={conversation.partner.user_id === partnerId} />
            ))}
          </ul>
        )}
        <div className={styles.more}>
          <LoadMore list={list} block />
        </div>
      </div>
    </section>
  );
}

function ConversationItem({ conversation, me, current }: { conversation: ConversationSummary; me: number; current: boolean }) {
  const { partner, last_message: last, unread } = conversation;
  const badge = badgeText(unread);
  return (
    <li>
      <SkinLink to={conversationPath(partner.user_id)} className={styles.conversation} aria-current={current ? 'true' : undefined}>
        <Avatar name={partner.username} src={partner.avatar} size={40} />
        <span className={styles.summary}>
          <span className={styles.summaryTop}>
            <span className={styles.partnerName}>{partner.username}</span>
            <time className={styles.when} dateTime={last.time} title={new Date(last.time).toLocaleString()}>
              {relativeTime(last.time)}
            </time>
          </span>
          <span className={styles.summaryBottom}>
            <span className={`${styles.preview} ${badge ? styles.previewUnread : ''}`}>
              {last.sender_id === me && 'You: '}
              {previewOf(last)}
            </span>
            {badge && (
              <span className={styles.unread}>
                <span aria-hidden="true">{badge}</span>
                <span className="visually-hidden">{`, ${unread} unread`}</span>
              </span>
            )}
          </span>
        </span>
      </SkinLink>
    </li>
  );
}

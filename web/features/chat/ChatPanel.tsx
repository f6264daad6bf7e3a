import { Tabs } from 'radix-ui';
import { Suspense, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { StreamInfo } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { priorityChannelOf, streamChannelOf } from '../../../common/realtime-channels';
import { useSkin } from '../../app/skin';
import { isRealtimeError, realtimeClient } from '../../api/realtime';
import { useInteractionDisabled } from '../../ui/InteractionDisabled';
import { Spinner } from '../../ui/Spinner';
import { useSession, LoginPrompt } from '../accounts';
import { useAppConfig } from '../system';
import { useChatChannel, useConnectionStatus } from './api';
import { useChatModeration } from './moderation-api';
import type { ChannelState } from './api';
import { browserLanguage, isServiceMessage, systemLine } from './chat-lines';
import type { ServiceMessage } from './chat-lines';
import { ChatRulesButton, HeldLines } from './ChatModeration';
import { lazyOnDemand } from '../../app/lazy-page';
import { ChatInput } from './ChatInput';
import { ChatLog } from './ChatLog';
import type { LocalLine, TranslateState } from './ChatLog';
import { ChatOverlay, useOverlayFeed } from './ChatOverlay';
import { emojiSetFor } from './emoji';
import styles from './ChatPanel.module.css';
import { TranslateIcon } from '../../ui/icons';

// Paid-chat skins alone ask for coins before chatting: the prompt loads when it opens.
const ChatPaymentPrompt = lazyOnDemand(() => import('./ChatDialogs'), 'ChatPaymentPrompt');

/** The element inside the player where the chat puts its overlay (last 4 lines) and floating likes. */
export const CHAT_OVERLAY_SLOT_ID = 'stream-chat-overlay';

export interface ChatPanelProps {
  stream: StreamInfo;
  /** Service messages the page reacts to: STREAM-END, STREAM-OPTIONS, BLOCKED, TIP, TIP-ENFORCE. */
  onServiceMessage?: (message: ServiceMessage) => void;
  /** A paused live stream takes no likes ("You cannot interact with the stream while it's paused"). */
  interactionsPaused?: boolean;
  /** Lines of this viewer's public chat list alone, never sent (chat ads). */
  localLines?: readonly LocalLine[];
  /** The tip button of the chat input (spec part 1 §2: the mobile chat input has tip and like); `onGuest` opens the login prompt. */
  tipSlot?: (onGuest: () => void) => ReactNode;
  /** Under the header, over the lines: what the stream shows its chat (the tip goal's bar). */
  topSlot?: ReactNode;
}

/** The spec names a network-loss reconnecting message without its words (part 2 §8). */
export const RECONNECTING_TEXT = 'Connection lost. Reconnecting…';
const NOTICE_MS = 5_000;
/** When translation is switched on, this many of the latest lines are translated too. */
const TRANSLATE_BACKLOG = 5;

type Tab = 'public' | 'priority';

/** The stream's chat: window, input, likes (spec part 1 §2 Stream view). */
export function ChatPanel({ stream, onServiceMessage, interactionsPaused = false, localLines, tipSlot, topSlot }: ChatPanelProps) {
  const { user, isLoggedIn, isPending: sessionPending } = useSession();
  const skin = useSkin();
  const appConfig = useAppConfig();
  const status = useConnectionStatus();
  const overlay = useOverlayFeed();
  const [tab, setTab] = useState<Tab>('public');
  const [prompt, setPrompt] = useState<'login' | 'payment' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const interactionDisabled = useInteractionDisabled();
  // STREAM-OPTIONS switches chat live; a newer lookup of the stream wins over an older switch.
  const [chatSwitch, setChatSwitch] = useState<{ base: boolean; enabled: boolean } | null>(null);
  const chatEnabled = chatSwitch && chatSwitch.base === stream.chat_enabled ? chatSwitch.enabled : stream.chat_enabled;
  const [translateFrom, setTranslateFrom] = useState<number | null>(null);
  const [translateFailed, setTranslateFailed] = useState(false);

  const myUserId = user?.user_id ?? null;
  const latest = useRef({ onServiceMessage, myUserId, streamChatEnabled: stream.chat_enabled });
  useEffect(() => {
    latest.current = { onServiceMessage, myUserId, streamChatEnabled: stream.chat_enabled };
  });

  const noticeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const showNotice = useCallback((text: string) => {
    setNotice(text);
    if (noticeTimer.current) clearTimeout(noticeTimer.current);
    noticeTimer.current = setTimeout(() => setNotice(null), NOTICE_MS);
  }, []);
  useEffect(() => () => {
    if (noticeTimer.current) clearTimeout(noticeTimer.current);
  }, []);

  const main = useChatChannel(streamChannelOf(stream.stream_id), {
    onMessage: (message, line) => {
      if (line) overlay.addLine(line);
      if (message.type === 'LIKE') overlay.addHearts(message.likes);
      if (message.type === 'STREAM-OPTIONS') {
        const enabled = message.options.chat_enabled;
        setChatSwitch({ base: latest.current.streamChatEnabled, enabled });
        main.addLine(systemLine(enabled ? 'Chat is enabled.' : MSG.chatDisabled));
      }
      if (message.type === 'STREAM-END') main.addLine(systemLine('The stream has ended.'));
      if (isServiceMessage(message)) latest.current.onServiceMessage?.(message);
    },
    onRefused: (error) => {
      const { myUserId: me, onServiceMessage: notify } = latest.current;
      if (error.code === 'block' && me !== null) notify?.({ type: 'BLOCKED', text: String(me), data: { user_id: me } });
    },
  });
  const priorityAvailable = stream.priority_chat && skin.flags.subscriptions;
  const priority = useChatChannel(priorityAvailable ? priorityChannelOf(stream.stream_id) : null, {
    onMessage: (_message, line) => {
      if (line) overlay.addLine(line);
    },
  });
  const activeTab: Tab = priorityAvailable ? tab : 'public';
  const active = activeTab === 'priority' ? priority : main;

  // The socket carries the session cookie of when it opened: a login or logout needs a new one.
  const seenUser = useRef<number | null | undefined>(undefined);
  useEffect(() => {
    if (sessionPending) return;
    if (seenUser.current !== undefined && seenUser.current !== myUserId) realtimeClient().reconnect();
    seenUser.current = myUserId;
  }, [sessionPending, myUserId]);

  function refused(error: unknown) {
    if (!isRealtimeError(error)) return showNotice(MSG.internal);
    switch (error.code) {
      case 'unauthorized':
        return setPrompt('login');
      case 'chat_payment_required':
        return setPrompt('payment');
      case 'like_limit':
        return showNotice(MSG.likeLimit);
      case 'rate_limited':
        // Too fast, or the channel's slow mode: the server's text says which.
        return showNotice(error.message || MSG.chatTooFast);
      default:
        return showNotice(error.message || MSG.internal);
    }
  }

  async function sendComment(text: string): Promise<boolean> {
    if (!isLoggedIn) {
      setPrompt('login');
      return false;
    }
    try {
      await active.send({ type: 'COMMENT', text });
      return true;
    } catch (error) {
      refused(error);
      return false;
    }
  }

  function like() {
    if (!isLoggedIn) return setPrompt('login');
    if (interactionsPaused) return interactionDisabled.show();
    main.send({ type: 'LIKE', likes: 1 }).catch(refused);
  }

  const translateOn = translateFrom !== null;
  function toggleTranslate() {
    if (!isLoggedIn) return setPrompt('login');
    if (translateOn) return setTranslateFrom(null);
    const recent = main.lines.slice(-TRANSLATE_BACKLOG)[0];
    setTranslateFailed(false);
    setTranslateFrom(recent ? recent.seq : Number.MAX_SAFE_INTEGER);
  }
  const onTranslateFailed = useCallback(() => setTranslateFailed(true), []);
  const translate: TranslateState | null = translateOn && isLoggedIn ? { lang: browserLanguage(navigator.language), fromSeq: translateFrom, onFailed: onTranslateFailed } : null;

  const ownLineHeld = useCallback(() => showNotice(MSG.chatHeld), [showNotice]);
  const moderation = useChatModeration(stream.stream_id, myUserId, ownLineHeld);
  const moderates = stream.is_owner || moderation.data?.moderator === true;
  const disabledNote = !chatEnabled ? MSG.chatDisabled : refusalNote(active.state, activeTab);
  const ready = status === 'open' && active.state.state === 'joined';

  const log = (channel: typeof main, label: string, empty: string, local?: readonly LocalLine[]) => (
    <ChatLog
      lines={channel.lines}
      localLines={local}
      label={label}
      empty={channel.state.state === 'joining' ? 'Joining the chat…' : empty}
      translate={translate}
      moderatedStreamId={moderates ? stream.stream_id : null}
      myUserId={myUserId}
    />
  );

  // A replay's chat is the one that was live: it is not live now.
  const chatTitle = stream.live === 'Y' ? 'Live chat' : 'Chat replay';
  return (
    <section className={styles.panel} aria-label={chatTitle}>
      <div className={styles.inner}>
        <Tabs.Root className={styles.tabs} value={activeTab} onValueChange={(v) => setTab(v as Tab)}>
          <header className={styles.header}>
            {priorityAvailable ? (
              <Tabs.List className={styles.tabList} aria-label="Chat rooms">
                <Tabs.Trigger className={styles.tab} value="public">
                  Chat
                </Tabs.Trigger>
                <Tabs.Trigger className={styles.tab} value="priority">
                  Priority
                </Tabs.Trigger>
              </Tabs.List>
            ) : (
              <h2 className={styles.heading}>{chatTitle}</h2>
            )}
            <div className={styles.headerTools}>
              {moderates && <ChatRulesButton channelId={stream.user_id} asModerator={!stream.is_owner} />}
              {appConfig.data?.translate && (
                <button
                  type="button"
                  className={`${styles.headerButton} ${translateOn ? styles.headerButtonOn : ''}`}
                  aria-label="Translate chat"
                  aria-pressed={translateOn}
                  title={translateOn ? 'Show the chat as written' : 'Translate chat'}
                  onClick={toggleTranslate}
                >
                  <TranslateIcon size={18} />
                </button>
              )}
            </div>
          </header>
          {topSlot}
          <ConnectionNote status={status} />
          {translateOn && translateFailed && <p className={styles.bar}>{MSG.translationUnavailable}</p>}
          <Tabs.Content className={styles.tabPanel} value="public">
            {log(main, 'Chat', 'No messages yet. Say hello!', localLines)}
          </Tabs.Content>
          {priorityAvailable && (
            <Tabs.Content className={styles.tabPanel} value="priority">
              {log(priority, 'Priority chat', 'Priority chat is quiet for now.')}
            </Tabs.Content>
          )}
        </Tabs.Root>
        {moderates && (moderation.data?.held.length ?? 0) > 0 && (
          <Suspense fallback={null}>
            <HeldLines streamId={stream.stream_id} held={moderation.data!.held} />
          </Suspense>
        )}
        <ChatInput
          key={activeTab}
          disabledNote={disabledNote}
          ready={ready}
          isGuest={!isLoggedIn}
          onGuest={() => setPrompt('login')}
          onSend={sendComment}
          onLike={stream.is_owner ? null : like}
          tip={tipSlot?.(() => setPrompt('login'))}
          emoji={emojiSetFor(user)}
          emotesOf={stream.user_id}
          notice={notice}
        />
      </div>
      <ChatOverlay slotId={CHAT_OVERLAY_SLOT_ID} lines={overlay.lines} hearts={overlay.hearts} />
      <LoginPrompt open={prompt === 'login'} onOpenChange={(open) => setPrompt(open ? 'login' : null)} />
      <ChatPaymentPrompt open={prompt === 'payment'} onOpenChange={(open) => setPrompt(open ? 'payment' : null)} />
      {interactionDisabled.modal}
    </section>
  );
}

function refusalNote(state: ChannelState, tab: Tab): string | null {
  if (state.state !== 'refused') return null;
  if (tab === 'priority' && (state.error.code === 'forbidden' || state.error.code === 'unauthorized')) return MSG.priorityChatOnly;
  return state.error.message || MSG.internal;
}

function ConnectionNote({ status }: { status: ReturnType<typeof useConnectionStatus> }) {
  if (status === 'reconnecting') {
    return (
      <p className={`${styles.bar} ${styles.barWarn}`} role="status">
        <Spinner size="sm" />
        {RECONNECTING_TEXT}
      </p>
    );
  }
  if (status === 'connecting') {
    return (
      <p className={styles.bar} role="status">
        <Spinner size="sm" />
        Connecting to chat…
      </p>
    );
  }
  return null;
}

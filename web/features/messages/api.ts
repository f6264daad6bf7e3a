/**
 * Direct messages server state (decision 0086): the unread count of the top bar, the conversation list,
 * each thread read page by page, and the DM, DM-READ and DM-TYPING frames of the member's own channel that
 * keep them current without a reload; sending, reading, blocking, reporting and the member's setting.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { messages as messageCalls } from '../../../common/api/calls';
import type { CallOutput } from '../../../common/api/define';
import type { DirectMessage, MessageSettings } from '../../../common/api/messages';
import { DM } from '../../../common/rules/messages';
import { userChannelOf } from '../../../common/realtime-channels';
import type { RealtimeMessage } from '../../../common/realtime';
import { call, isApiError } from '../../api/client';
import type { ApiError } from '../../api/client';
import { newIdempotencyKey } from '../../api/idempotency';
import { realtimeClient } from '../../api/realtime';
import { nextPageOffset } from '../../ui/paging';
import type { ComplaintType } from '../streams';
import {
  earlierCursor, nextOffset, partnerOf, typingDue, typingUntil, withConversationRead, withMessage, withMessageUpdated, withPartnerRead,
} from './thread-state';
import { walletKeys } from '../wallet';
import type { ConversationPage } from './thread-state';

export const messageKeys = {
  all: ['messages'] as const,
  unread: () => [...messageKeys.all, 'unread'] as const,
  lists: () => [...messageKeys.all, 'conversations'] as const,
  list: (search: string) => [...messageKeys.lists(), search] as const,
  thread: (partnerId: number) => [...messageKeys.all, 'thread', partnerId] as const,
  settings: () => [...messageKeys.all, 'settings'] as const,
};

export type Thread = CallOutput<typeof messageCalls.thread>;
type ThreadData = InfiniteData<Thread, number | undefined>;
type ListData = InfiniteData<ConversationPage, number>;

/** The count and the list are read again when older than this (the frames keep them current meanwhile). */
const FRESH_MS = 60_000;

const noRetryOnRefusal = (count: number, error: unknown) => !isApiError(error) && count < 2;

/** The unread count of the top bar's envelope. */
export function useUnreadMessages(enabled: boolean) {
  return useQuery({
    queryKey: messageKeys.unread(),
    enabled,
    staleTime: FRESH_MS,
    queryFn: async () => (await call(messageCalls.unreadMessages, {})).unread,
  });
}

/**
 * Listens to the member's own channel with `onMessage`; after a reconnect `onResubscribed` reads again what
 * the frames keep, since frames sent while the socket was down are lost.
 */
function useOwnChannel(userId: number | null, onMessage: (message: RealtimeMessage) => void, onResubscribed: () => void): void {
  // The latest handlers, so the one subscription per member hears with what the page shows now.
  const handlers = useRef({ onMessage, onResubscribed });
  useEffect(() => {
    handlers.current = { onMessage, onResubscribed };
  });
  useEffect(() => {
    if (userId === null) return;
    let subscriptions = 0;
    return realtimeClient().subscribe(userChannelOf(userId), {
      onMessage: (message) => handlers.current.onMessage(message),
      onSubscribed: () => {
        subscriptions += 1;
        if (subscriptions > 1) handlers.current.onResubscribed();
      },
    });
  }, [userId]);
}

/** The top bar's count: a DM frame carries it; the member reading on any page (DM-READ of theirs) asks for it again. */
export function useUnreadFrames(userId: number): void {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: messageKeys.unread() });
  useOwnChannel(userId, (message) => {
    if (message.type === 'DM') queryClient.setQueryData(messageKeys.unread(), message.data.unread);
    else if (message.type === 'DM-READ' && message.data.reader_id === userId) refresh();
  }, refresh);
}

/** A message joins its thread's cache (when the thread was read) and the list is read again, the conversation on top. */
function applyMessage(queryClient: QueryClient, myId: number, message: DirectMessage): void {
  queryClient.setQueryData<ThreadData>(messageKeys.thread(partnerOf(message, myId)), (data) => data && withMessage(data, message));
  void queryClient.invalidateQueries({ queryKey: messageKeys.lists() });
}

/** A message as the server showed it to this member just now (signed addresses, unlocked): it replaces the one held. */
function updateMessage(queryClient: QueryClient, myId: number, message: DirectMessage): void {
  queryClient.setQueryData<ThreadData>(messageKeys.thread(partnerOf(message, myId)), (data) => data && withMessageUpdated(data, message));
}

/**
 * A frame carries a message's medium without addresses (they are signed for each page): the message joins
 * its thread at once, and is looked up for its addresses.
 */
function applyFramedMessage(queryClient: QueryClient, myId: number, message: DirectMessage): void {
  applyMessage(queryClient, myId, message);
  if (!message.media) return;
  void call(messageCalls.messageLookup, { message_id: message.id })
    .then(({ message: signed }) => updateMessage(queryClient, myId, signed))
    .catch(() => undefined);
}

/**
 * The messages page's frames: a message joins its thread and moves its conversation up; the partner's
 * read moves Seen; the member's own read (here or on another page) clears the conversation's count.
 * Answers until when each member typing to them shows as typing (DM.typingShownMs after their DM-TYPING,
 * until a message of theirs), by user id.
 */
export function useConversationFrames(userId: number): ReadonlyMap<number, number> {
  const queryClient = useQueryClient();
  const [typing, setTyping] = useState<ReadonlyMap<number, number>>(new Map());
  const typingAs = (from: number, until: number) =>
    setTyping((now) => {
      if ((now.get(from) ?? 0) === until) return now;
      const next = new Map(now);
      if (until === 0) next.delete(from);
      else next.set(from, until);
      return next;
    });
  useOwnChannel(userId, (message) => {
    if (message.type === 'DM-TYPING') typingAs(message.data.user_id, typingUntil(Date.now()));
    if (message.type === 'DM') {
      applyFramedMessage(queryClient, userId, message.data.message);
      typingAs(message.data.message.sender_id, 0);
    }
    if (message.type !== 'DM-READ') return;
    const { reader_id, partner_id, last_read_id } = message.data;
    if (reader_id === userId) {
      queryClient.setQueriesData<ListData>({ queryKey: messageKeys.lists() }, (data) => data && { ...data, pages: data.pages.map((page) => withConversationRead(page, partner_id)) });
    } else {
      queryClient.setQueryData<ThreadData>(messageKeys.thread(reader_id), (data) => data && withPartnerRead(data, last_read_id));
    }
  }, () => {
    setTyping(new Map());
    void queryClient.invalidateQueries({ queryKey: messageKeys.all });
  });
  return typing;
}

/** Whether a member typing until `until` (0: not typing) still shows as typing: until that moment passes. */
export function useStillTyping(until: number): boolean {
  const [passed, setPassed] = useState(0);
  useEffect(() => {
    if (until === 0) return;
    const timer = setTimeout(() => setPassed(until), Math.max(0, until - Date.now()));
    return () => clearTimeout(timer);
  }, [until]);
  return until !== 0 && passed !== until;
}

/** Tells the partner the member is typing, at most every DM.typingEveryMs (through the page's realtime connection). */
export function useTypingSignal(userId: number, partnerId: number): (typed: string) => void {
  const last = useRef(0);
  useEffect(() => {
    last.current = 0;
  }, [partnerId]);
  return (typed) => {
    const now = Date.now();
    if (!typingDue(last.current, now, typed)) return;
    last.current = now;
    // Typing is a courtesy: a refusal or a dropped connection costs nothing.
    realtimeClient().send(userChannelOf(userId), { type: 'DM-TYPING', to: partnerId }).catch(() => undefined);
  };
}

/** The member's conversations, the latest first, page by page; `search` keeps those whose name starts with it. */
export function useConversations(search: string) {
  return useInfiniteQuery({
    queryKey: messageKeys.list(search),
    staleTime: FRESH_MS,
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<ConversationPage> => {
      const { conversations, total } = await call(messageCalls.conversations, { ...(search ? { search_text: search } : {}), offset: pageParam, limit: DM.pageSize });
      return { conversations, total };
    },
    getNextPageParam: (last, pages) => nextOffset(last, pages),
  });
}

/** The conversation with `partnerId`, the newest page first; the next page is the one before it. */
export function useThread(partnerId: number) {
  return useInfiniteQuery({
    queryKey: messageKeys.thread(partnerId),
    // The frames keep an open thread current; one read again when it is opened again.
    staleTime: 0,
    retry: noRetryOnRefusal,
    initialPageParam: undefined as number | undefined,
    queryFn: ({ pageParam }) => call(messageCalls.thread, { user_id: partnerId, ...(pageParam ? { before: pageParam } : {}), limit: DM.pageSize }),
    getNextPageParam: (last) => earlierCursor(last),
  });
}

/** What the composer sends: its words, and a medium of the vault at a price (0: free). */
export interface MessageDraft {
  text: string;
  media_id: number | null;
  price: number;
}

const draftKey = (draft: MessageDraft) => JSON.stringify([draft.text, draft.media_id, draft.price]);

/**
 * Sends the composer's draft. A draft keeps its client key until it is sent, so sending it again after a
 * lost answer is the same message; the next draft gets a fresh one.
 */
export function useSendMessage(userId: number, partnerId: number) {
  const queryClient = useQueryClient();
  const pending = useRef({ draft: '', key: '' });
  return useMutation<DirectMessage, ApiError, MessageDraft>({
    mutationFn: async (draft) => {
      if (pending.current.draft !== draftKey(draft) || !pending.current.key) pending.current = { draft: draftKey(draft), key: newIdempotencyKey() };
      const { text, media_id, price } = draft;
      return (await call(messageCalls.sendMessage, { user_id: partnerId, text, ...(media_id === null ? {} : { media_id, price }), client_key: pending.current.key })).message;
    },
    onSuccess: (message) => {
      pending.current = { draft: '', key: '' };
      updateMessage(queryClient, userId, message);
      void queryClient.invalidateQueries({ queryKey: messageKeys.lists() });
    },
    // Refused: whether the member may write is read again (a block, a changed setting).
    onError: (error) => {
      if (error.status === 403) void queryClient.invalidateQueries({ queryKey: messageKeys.thread(partnerId) });
    },
  });
}

/** Marks the thread read up to a message: the top bar's count comes back with it, the list's count goes. */
export function useReadThread(partnerId: number) {
  const queryClient = useQueryClient();
  return useMutation<number, ApiError, number>({
    mutationFn: async (messageId) => (await call(messageCalls.readMessages, { user_id: partnerId, message_id: messageId })).unread,
    onSuccess: (unread) => {
      queryClient.setQueryData(messageKeys.unread(), unread);
      queryClient.setQueriesData<ListData>({ queryKey: messageKeys.lists() }, (data) => data && { ...data, pages: data.pages.map((page) => withConversationRead(page, partnerId)) });
    },
  });
}

/** Blocks or unblocks the partner; the thread is read again (who may write changes). */
export function useBlockMember(partnerId: number) {
  const queryClient = useQueryClient();
  return useMutation<boolean, ApiError, boolean>({
    mutationFn: async (block) => (await call(messageCalls.blockMember, { user_id: partnerId, block })).blocked,
    onSettled: () => queryClient.invalidateQueries({ queryKey: messageKeys.thread(partnerId) }),
  });
}

type ReportInput = { type: ComplaintType; user_comment?: string };

export const useReportMessage = (messageId: number) =>
  useMutation<unknown, ApiError, ReportInput>({ mutationFn: (input) => call(messageCalls.reportMessage, { message_id: messageId, ...input }) });

export function useMessageSettings() {
  return useQuery({ queryKey: messageKeys.settings(), queryFn: async () => (await call(messageCalls.getMessageSettings, {})).settings });
}

/** Saves both settings together: a save that left out `bulk` would turn messages to many back on. */
export function useSaveMessageSettings() {
  const queryClient = useQueryClient();
  return useMutation<MessageSettings, ApiError, MessageSettings>({
    mutationFn: async ({ audience, bulk }) => (await call(messageCalls.saveMessageSettings, { audience, bulk })).settings,
    onSuccess: (settings) => queryClient.setQueryData(messageKeys.settings(), settings),
  });
}

/** Pays a paid message's price: the message opens in its thread, the wallet shows the new balance. */
export function useUnlockMessage(userId: number) {
  const queryClient = useQueryClient();
  return useMutation<CallOutput<typeof messageCalls.unlockMessage>, ApiError, number>({
    mutationFn: (messageId) => call(messageCalls.unlockMessage, { message_id: messageId }),
    onSuccess: ({ message, balance }) => {
      updateMessage(queryClient, userId, message);
      queryClient.setQueryData(walletKeys.balance(), (held: Record<string, number> | undefined) => held && { ...held, CON: balance });
    },
  });
}

/** Who unlocked the creator's paid messages, the latest first, page by page. */
export function useMessageUnlocks() {
  return useInfiniteQuery({
    queryKey: [...messageKeys.all, 'unlocks'] as const,
    initialPageParam: 0,
    queryFn: ({ pageParam }) => call(messageCalls.messageUnlocks, { offset: pageParam, limit: 20 }),
    getNextPageParam: (last, pages) => nextPageOffset(last, pages, (page) => page.unlocks),
  });
}

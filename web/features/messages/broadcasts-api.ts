/**
 * Messages to many, server state (decision 0086): the creator's list, read again every few seconds while
 * one is being delivered, and the send. The server's job delivers each as a message in the recipient's own
 * conversation with the creator, so the creator's conversation list is read again once a delivery ends.
 */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { messages as messageCalls } from '../../../common/api/calls';
import type { MessageBroadcast } from '../../../common/api/messages';
import { call } from '../../api/client';
import type { ApiError } from '../../api/client';
import { newIdempotencyKey } from '../../api/idempotency';
import { messageKeys } from './api';
import { anySending, listedBroadcasts, nextBroadcastOffset, NOTHING_PENDING, pendingFor, pollInterval } from './broadcast-rules';
import type { BroadcastDraft, BroadcastPage } from './broadcast-rules';

const broadcastsKey = [...messageKeys.all, 'broadcasts'] as const;
const PAGE_SIZE = 20;

/** The creator's messages to many, the latest first, page by page; read again while one is sending. */
export function useBroadcasts() {
  const queryClient = useQueryClient();
  const list = useInfiniteQuery({
    queryKey: broadcastsKey,
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<BroadcastPage> => call(messageCalls.broadcasts, { offset: pageParam, limit: PAGE_SIZE }),
    getNextPageParam: (last, pages) => nextBroadcastOffset(last, pages),
    refetchInterval: (query) => pollInterval(query.state.data?.pages.flatMap((page) => page.broadcasts)),
  });
  const broadcasts = list.data ? listedBroadcasts(list.data.pages) : [];
  // A delivery ended: the conversations it started or moved up are read again.
  const sending = anySending(broadcasts);
  const wasSending = useRef(sending);
  useEffect(() => {
    if (wasSending.current && !sending) {
      void queryClient.invalidateQueries({ queryKey: messageKeys.all, predicate: (query) => query.queryKey[1] === 'conversations' || query.queryKey[1] === 'thread' });
    }
    wasSending.current = sending;
  }, [sending, queryClient]);
  return { list, broadcasts };
}

/**
 * Sends a draft to many. A draft keeps its client key until it is sent, so sending it again after a lost
 * answer is the same sending (not a second one counted against the day's); any other draft gets a fresh key.
 */
export function useSendToMany() {
  const queryClient = useQueryClient();
  const pending = useRef(NOTHING_PENDING);
  return useMutation<MessageBroadcast, ApiError, BroadcastDraft>({
    mutationFn: async (draft) => {
      pending.current = pendingFor(pending.current, draft, newIdempotencyKey);
      const { audience, plan_id, text, media_id, price } = draft;
      const medium = media_id === null ? {} : { media_id, price };
      return (await call(messageCalls.sendToMany, { audience, ...(plan_id === null ? {} : { plan_id }), text, ...medium, client_key: pending.current.key })).broadcast;
    },
    onSuccess: () => {
      pending.current = NOTHING_PENDING;
      void queryClient.invalidateQueries({ queryKey: broadcastsKey });
    },
  });
}

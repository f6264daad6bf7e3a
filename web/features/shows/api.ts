/**
 * Shows server state (decision 0085): a stream's show and the viewer's seat, kept live from SHOW (the
 * stream's channel) and SHOW-SEAT (the viewer's own); the page saying its viewer is still there; the
 * broadcaster's panel (SHOW-REQUESTS) and offer.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { shows as showCalls } from '../../../common/api/calls';
import type { CallOutput } from '../../../common/api/define';
import type { ShowOffer, ShowOfferInput, ShowSeat } from '../../../common/api/shows';
import { streamChannelOf, userChannelOf } from '../../../common/realtime-channels';
import { SHOW } from '../../../common/rules/shows';
import { call, isApiError } from '../../api/client';
import type { ApiError } from '../../api/client';
import { realtimeClient } from '../../api/realtime';
import { walletKeys } from '../wallet';
import { seatIsOpen } from './show-state';

export const showKeys = {
  all: ['shows'] as const,
  stream: (streamId: number) => [...showKeys.all, 'stream', streamId] as const,
  panel: (streamId: number) => [...showKeys.all, 'panel', streamId] as const,
  offer: (userId: number) => [...showKeys.all, 'offer', userId] as const,
};

export type StreamShow = CallOutput<typeof showCalls.streamShow>;
export type ShowPanelData = CallOutput<typeof showCalls.showRequests>;

/** How often a page reads a show that is on again, besides its frames. */
const SHOW_REREAD_MS = 10_000;

const noRetryOnRefusal = (count: number, error: unknown) => !isApiError(error) && count < 2;

/** The stream's show, its broadcaster's offer and the viewer's seat, while the stream is live. */
export function useStreamShow(streamId: number, live: boolean, myUserId: number | null) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: showKeys.stream(streamId),
    queryFn: () => call(showCalls.streamShow, { id: streamId }),
    enabled: live,
    retry: noRetryOnRefusal,
    // While a show is on, read it again now and then: a SHOW frame missed (a reconnect, a read that crossed
    // it) must not keep a viewer behind the curtain once the show is over.
    refetchInterval: (query) => (query.state.data?.show?.state === 'live' ? SHOW_REREAD_MS : false),
  });
  useEffect(() => {
    if (!live) return;
    const update = (change: (state: StreamShow) => StreamShow) =>
      queryClient.setQueryData<StreamShow>(showKeys.stream(streamId), (state) => state && change(state));
    const stopStream = realtimeClient().subscribe(streamChannelOf(streamId), (message) => {
      if (message.type === 'SHOW' && message.data.stream_id === streamId) update((state) => ({ ...state, show: message.data.show }));
    });
    const stopOwn = myUserId === null ? () => {} : realtimeClient().subscribe(userChannelOf(myUserId), (message) => {
      if (message.type !== 'SHOW-SEAT' || message.data.seat.stream_id !== streamId) return;
      update((state) => ({ ...state, seat: message.data.seat }));
      // A minute paid: the top bar's balance follows.
      void queryClient.invalidateQueries({ queryKey: walletKeys.balance() });
    });
    return () => {
      stopStream();
      stopOwn();
    };
  }, [streamId, live, myUserId, queryClient]);
  useShowHere(streamId, query.data?.seat ?? null);
  return query;
}

/**
 * While the viewer holds an open seat, the page says so every SHOW.hereEveryMs: a viewer not heard from is
 * not billed again. The answer is the seat as it stands, so a missed SHOW-SEAT is made good here.
 */
function useShowHere(streamId: number, seat: ShowSeat | null) {
  const queryClient = useQueryClient();
  const open = seat !== null && seatIsOpen(seat);
  useEffect(() => {
    if (!open) return;
    const tell = async () => {
      const answer = await call(showCalls.showHere, { stream_id: streamId }).catch(() => null);
      if (answer) queryClient.setQueryData<StreamShow>(showKeys.stream(streamId), (state) => state && { ...state, seat: answer.seat });
    };
    const timer = setInterval(() => void tell(), SHOW.hereEveryMs);
    return () => clearInterval(timer);
  }, [streamId, open, queryClient]);
}

function useSeatMutation<Input>(streamId: number, send: (input: Input) => Promise<{ seat: ShowSeat | null }>) {
  const queryClient = useQueryClient();
  return useMutation<{ seat: ShowSeat | null }, ApiError, Input>({
    mutationFn: send,
    onSuccess: ({ seat }) => queryClient.setQueryData<StreamShow>(showKeys.stream(streamId), (state) => state && { ...state, seat }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: showKeys.stream(streamId) });
      await queryClient.invalidateQueries({ queryKey: walletKeys.balance() });
    },
  });
}

/** Asks for a private show, buys a group ticket or spies. */
export const useJoinShow = (streamId: number) =>
  useSeatMutation(streamId, (as: 'private' | 'group' | 'spy') => call(showCalls.joinShow, { stream_id: streamId, as }));

/** Withdraws a request or ticket, or leaves the show. */
export const useLeaveShow = (streamId: number) => useSeatMutation(streamId, () => call(showCalls.leaveShow, { stream_id: streamId }));

/** The broadcaster's panel, read again whenever SHOW-REQUESTS says it changed. */
export function useShowPanel(streamId: number, ownerId: number) {
  const queryClient = useQueryClient();
  useEffect(
    () => realtimeClient().subscribe(userChannelOf(ownerId), (message) => {
      if (message.type === 'SHOW-REQUESTS' && message.data.stream_id === streamId) void queryClient.invalidateQueries({ queryKey: showKeys.panel(streamId) });
    }),
    [streamId, ownerId, queryClient],
  );
  return useQuery({ queryKey: showKeys.panel(streamId), queryFn: () => call(showCalls.showRequests, { id: streamId }), retry: noRetryOnRefusal });
}

function usePanelMutation<Input, Output>(streamId: number, send: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation<Output, ApiError, Input>({
    mutationFn: send,
    onSettled: () => queryClient.invalidateQueries({ queryKey: showKeys.panel(streamId) }),
  });
}

export const useAnswerRequest = (streamId: number) =>
  usePanelMutation(streamId, ({ showId, accept }: { showId: number; accept: boolean }) =>
    call(showCalls.answerShowRequest, { stream_id: streamId, show_id: showId, accept }));
export const useOpenGroupShow = (streamId: number) => usePanelMutation(streamId, () => call(showCalls.openGroupShow, { stream_id: streamId }));
export const useEndShow = (streamId: number) => usePanelMutation(streamId, () => call(showCalls.endShow, { stream_id: streamId }));

export function useShowOffer(userId: number) {
  return useQuery({
    queryKey: showKeys.offer(userId),
    queryFn: async () => (await call(showCalls.getShowOffer, { user_id: userId })).offer,
    retry: noRetryOnRefusal,
  });
}

export function useSaveShowOffer(userId: number) {
  const queryClient = useQueryClient();
  return useMutation<ShowOffer, ApiError, ShowOfferInput>({
    mutationFn: async (offer) => (await call(showCalls.saveShowOffer, offer)).offer,
    onSuccess: (offer) => queryClient.setQueryData(showKeys.offer(userId), offer),
  });
}

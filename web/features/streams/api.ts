/** Stream server state: the broadcaster's own stream, lookups, joins and the stream listings. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { streamInteractions, streams } from '../../../common/api/calls';
import type { StreamInfo, StreamTile } from '../../../common/api/streams';
import type { CallInput } from '../../../common/api';
import { PAGE_SIZE } from '../../../common/constants';
import { call, callKeepalive, isApiError } from '../../api/client';
import { streamKeys } from '../../api/content-keys';
import { realtimeClient } from '../../api/realtime';
import { userChannelOf } from '../../../common/realtime-channels';
import type { BroadcastStopReason } from '../../../common/realtime';


/** The dashboard polls for its stream going live this often (spec part 1 §2 Broadcaster dashboard). */
const OWN_STREAM_POLL_MS = 10_000;
const LIVE_RECHECK_MS = 15_000;

/**
 * The caller's stream with RTMP URL and key; then stream-lookup every 10 s until it is live, and at once
 * when the owner's channel says STREAM-LIVE or STREAM-STOPPED (the platform stopped the broadcast: `stopped`
 * says why, until the next go-live).
 */
export function useOwnStream() {
  const own = useQuery({
    queryKey: streamKeys.own(),
    queryFn: async () => (await call(streams.getLiveStream, {})).stream,
    staleTime: Infinity,
  });
  const id = own.data?.stream_id;
  const poll = useQuery({
    queryKey: streamKeys.lookup(id ?? 0),
    queryFn: async () => (await call(streams.streamLookup, { id: id ?? 0 })).stream,
    enabled: id !== undefined,
    refetchInterval: (query) => (query.state.data?.live === 'Y' || query.state.error ? false : OWN_STREAM_POLL_MS),
  });
  const ownerId = own.data?.user_id;
  const { refetch } = poll;
  const [stopped, setStopped] = useState<BroadcastStopReason | null>(null);
  useEffect(() => {
    if (id === undefined || ownerId === undefined) return;
    return realtimeClient().subscribe(userChannelOf(ownerId), (message) => {
      if ((message.type !== 'STREAM-LIVE' && message.type !== 'STREAM-STOPPED') || message.data.stream_id !== id) return;
      setStopped(message.type === 'STREAM-STOPPED' ? message.data.reason : null);
      void refetch();
    });
  }, [ownerId, id, refetch]);
  const stream = own.data && poll.data ? { ...own.data, ...poll.data } : own.data;
  return { own, stream, stopped, refetch: () => poll.refetch() };
}

export function useStreamLookup(id: number) {
  return useQuery({
    queryKey: streamKeys.lookup(id),
    queryFn: async () => (await call(streams.streamLookup, { id })).stream,
    retry: (count, error) => !isApiError(error) && count < 2,
    // A live stream is looked up again now and then, so its end shows as REPLAY even mid-buffer.
    refetchInterval: (query) => (query.state.data?.live === 'Y' ? LIVE_RECHECK_MS : false),
  });
}

const joinStream = (id: number, preview: boolean) => call(streams.streamJoin, { stream_id: id, isHls: 'Y', ...(preview ? { preview: 'Y' } : {}) });

/** A new signed playback address for the player when its token expires (joining again is what signs one). */
export const freshPlaybackUrl = (id: number, preview = false) => async () => (await joinStream(id, preview)).url.hls;

/** The block check after a BLOCKED message: joining again answers 'block' once the viewer is banned. */
export async function isBlockedFrom(id: number, preview: boolean): Promise<boolean> {
  try {
    await joinStream(id, preview);
    return false;
  } catch (error) {
    return isApiError(error, 'block');
  }
}

export function useStreamJoin(id: number, enabled: boolean, preview: boolean) {
  return useQuery({
    queryKey: streamKeys.join(id, preview),
    queryFn: () => joinStream(id, preview),
    enabled,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

/** Tells the server the viewer left when the page goes away (also on unload, hence keepalive). */
export function useLeaveOnUnmount(id: number, joined: boolean) {
  useEffect(() => {
    if (!joined) return;
    const leave = () => void callKeepalive(streams.leaveStream, { id }).catch(() => undefined);
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      leave();
    };
  }, [id, joined]);
}

type StreamData = CallInput<typeof streams.updateStreamInfo>['data'];

/** Saves setup or edits; the answer refreshes every cached view of the stream. */
export function useUpdateStream(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (data: StreamData) => call(streams.updateStreamInfo, { id, data }),
    onSuccess: ({ stream }) => applyStream(queryClient, stream),
  });
}

export function useGoLive(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(streams.goLive, { id }),
    onSuccess: ({ stream }) => applyStream(queryClient, stream),
  });
}

export function useDeleteStream(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(streams.deleteStream, { id }),
    onSuccess: () => queryClient.removeQueries({ queryKey: streamKeys.all }),
  });
}

function applyStream(queryClient: ReturnType<typeof useQueryClient>, stream: StreamInfo) {
  queryClient.setQueryData(streamKeys.lookup(stream.stream_id), stream);
  queryClient.setQueryData(streamKeys.own(), (old: (StreamInfo & { rtmp_url: string; broadcast_key: string }) | undefined) =>
    old && old.stream_id === stream.stream_id ? { ...old, ...stream } : old,
  );
}

interface TilePage {
  streams: StreamTile[];
  total: number;
  offset: number;
}

/** A stream listing read 50 at a time. */
function useTilePages(queryKey: readonly unknown[], enabled: boolean, fetchPage: (page: { offset: number; limit: number }) => Promise<Omit<TilePage, 'offset'>>) {
  return useInfiniteQuery({
    queryKey,
    enabled,
    initialPageParam: 0,
    queryFn: async ({ pageParam }): Promise<TilePage> => ({ ...(await fetchPage({ offset: pageParam, limit: PAGE_SIZE.streams })), offset: pageParam }),
    getNextPageParam: (last) => (last.streams.length > 0 && last.offset + last.streams.length < last.total ? last.offset + last.streams.length : undefined),
  });
}

export const useChannelStreams = (id: number) => useTilePages(streamKeys.channel(id), id > 0, (page) => call(streams.listChannelStreams, { id, ...page }));
export const useAllStreams = () => useTilePages(streamKeys.everything(), true, (page) => call(streams.listStreams, page));
export const useStreamSearch = (term: string, enabled: boolean) =>
  useTilePages(streamKeys.search(term), enabled, (page) => call(streams.searchStream, { search: term, ...page }));
/** A user's streams; `adult` (the profile's ?adult=true) lists their 18+ streams too, where the skin shows them. */
export const useUserStreams = (id: number, adult = false) =>
  useTilePages(streamKeys.user(id, adult), id > 0, (page) => call(streams.userStreams, { id, ...(adult ? { isAdult: true } : {}), ...page }));
/** The caller's bookmarks (profile Saved tab). */
export const useSavedStreams = () => useTilePages(streamKeys.saved(), true, (page) => call(streamInteractions.savedStreams, page));

/**
 * Toy-device access server state (common/api/toys.ts): the broadcaster's records (GET_LOVENSE_LIST),
 * the viewer's own (GET_LOVENSE), the caller's device, the events of `lovense-action`, and the
 * realtime messages that keep them current on the caller's user channel.
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { toys } from '../../../common/api/calls';
import type { LovenseActionInput, ToyAccessRecord, ToyDevice } from '../../../common/api/toys';
import type { CallOutput } from '../../../common/api';
import { IDEMPOTENCY_HEADER } from '../../../common/api/descriptor';
import { userChannelOf } from '../../../common/realtime-channels';
import type { RealtimeMessage, RealtimeMessageOf, SendRequest } from '../../../common/realtime';
import { call, type ApiError } from '../../api/client';
import { realtimeClient } from '../../api/realtime';
import { walletKeys } from '../wallet';
import { channelOfPlace, samePlace, withRecord, type ToyPlace } from './toy-rules';

export const toyKeys = {
  all: ['toys'] as const,
  device: () => [...toyKeys.all, 'device'] as const,
  list: (place: ToyPlace) => [...toyKeys.all, 'list', place.room, place.stream_id] as const,
  mine: (place: ToyPlace) => [...toyKeys.all, 'mine', place.room, place.stream_id] as const,
  watchers: (streamId: number) => [...toyKeys.all, 'watchers', streamId] as const,
};

/** The live stream's signed-in watchers (the broadcaster's viewer picker), asked again every few seconds while it shows. */
export const useStreamWatchers = (streamId: number) =>
  useQuery({
    queryKey: toyKeys.watchers(streamId),
    queryFn: async () => (await call(toys.lovenseStreamViewers, { stream_id: streamId })).viewers.map((viewer) => ({ id: viewer.user_id, name: viewer.name, avatar: viewer.avatar })),
    refetchInterval: 5_000,
  });

const isRecord = (data: unknown): data is ToyAccessRecord => data !== null && typeof data === 'object' && !Array.isArray(data);

/** The caller's own device (the host's page): the provider, the SDK address, connected or not, the toys. */
export const useToyDevice = (enabled: boolean) =>
  useQuery({ queryKey: toyKeys.device(), queryFn: async () => (await call(toys.getLovenseDevice, {})).data, enabled, retry: false, refetchOnWindowFocus: false });

export function useSetToyDevice() {
  const queryClient = useQueryClient();
  return useMutation<ToyDevice, ApiError, { connected: boolean }>({
    mutationFn: async (input) => (await call(toys.setLovenseDevice, input)).data,
    onSuccess: (device) => queryClient.setQueryData(toyKeys.device(), device),
  });
}

/** The broadcaster's records of the room, read on load (spec part 2 §4); failures are silently ignored. */
export const useHostAccessList = (place: ToyPlace, enabled: boolean) =>
  useQuery({
    queryKey: toyKeys.list(place),
    queryFn: async () => {
      const { data } = await call(toys.lovenseAction, { event: 'GET_LOVENSE_LIST', ...place });
      return Array.isArray(data) ? data : [];
    },
    enabled,
    retry: false,
    refetchOnWindowFocus: false,
  });

/** The viewer's own record in the room, or null. */
export const useViewerAccess = (place: ToyPlace, myId: number, enabled: boolean) =>
  useQuery({
    queryKey: toyKeys.mine(place),
    queryFn: async () => {
      const { data } = await call(toys.lovenseAction, { event: 'GET_LOVENSE', ...place, viewer_id: myId });
      return isRecord(data) ? data : null;
    },
    enabled,
    retry: false,
    refetchOnWindowFocus: false,
  });

/** A record the server sent after a change, into the cache of the side that sees it. */
function applyRecord(queryClient: QueryClient, myId: number, record: ToyAccessRecord): void {
  const place = { stream_id: record.stream_id, room: record.room };
  if (record.broadcaster_id === myId) queryClient.setQueryData<ToyAccessRecord[]>(toyKeys.list(place), (list) => withRecord(list ?? [], record));
  if (record.viewer_id === myId) queryClient.setQueryData(toyKeys.mine(place), record);
}

type ActionEvent = LovenseActionInput extends infer E ? (E extends { event: infer N } ? Omit<Extract<LovenseActionInput, { event: N }>, 'stream_id' | 'room'> : never) : never;
export type ActionAnswer = CallOutput<typeof toys.lovenseAction>;

/** One `lovense-action` event in the room; a PAID_TIP_SUCCESS carries its Idempotency-Key. */
export function useLovenseAction(place: ToyPlace, myId: number) {
  const queryClient = useQueryClient();
  return useMutation<ActionAnswer, ApiError, { action: ActionEvent; key?: string }>({
    mutationFn: ({ action, key }) => call(toys.lovenseAction, { ...action, ...place } as LovenseActionInput, key ? { [IDEMPOTENCY_HEADER]: key } : undefined),
    onSuccess: (answer) => {
      if (isRecord(answer.data)) applyRecord(queryClient, myId, answer.data);
      if (answer.balance) queryClient.setQueryData(walletKeys.balance(), answer.balance);
    },
  });
}

/** The broadcaster's Lovense auth token for the browser SDK. */
export const fetchLovenseToken = (myId: number, place: ToyPlace) => call(toys.lovenseToken, { user_id: myId, ...place }).then((answer) => answer.data);

/** A toy operation on the room's channel (commands, the add-device request, the hang-ups). */
export const sendToyOperation = (place: ToyPlace, request: Extract<SendRequest, { type: `lovense-${string}` }>) => realtimeClient().send(channelOfPlace(place), request);

export interface ToyMessageHandlers {
  /** The server's copy of a record after a change (already in the caches). */
  onRecord?: (record: ToyAccessRecord) => void;
  /** A line for this side from the server: revoked, declined, tipped, the viewer left, add a device. */
  onText?: (text: string) => void;
  /** 'Lovense app connected.' / 'Lovense app disconnected.' */
  onAppStatus?: (text: string) => void;
  /** A checked command for the host's toy. */
  onCommand?: (command: RealtimeMessageOf<'lovense-command'>['payload']) => void;
}

/** Follows the toy messages of this room on the caller's user channel, keeping the records' caches current. */
export function useToyMessages(myId: number, place: ToyPlace, handlers: ToyMessageHandlers) {
  const queryClient = useQueryClient();
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });
  const { stream_id, room } = place;
  useEffect(() => {
    const here = { stream_id, room };
    const onMessage = (message: RealtimeMessage) => {
      const on = latest.current;
      switch (message.type) {
        case 'lovense-access':
          if (!samePlace(here, message.data.record)) return;
          applyRecord(queryClient, myId, message.data.record);
          on.onRecord?.(message.data.record);
          if (message.text) on.onText?.(message.text);
          return;
        case 'lovense-app-connection':
          // The host's own status comes without a room when no viewer holds access.
          if (message.payload.stream_id !== undefined && !samePlace(here, message.payload)) return;
          void queryClient.invalidateQueries({ queryKey: toyKeys.device() });
          on.onAppStatus?.(message.text);
          return;
        case 'lovense-add-device-request':
        case 'lovense-viewer-end-call':
          if (samePlace(here, message.payload)) on.onText?.(message.text);
          return;
        case 'lovense-command':
          if (samePlace(here, message.payload)) on.onCommand?.(message.payload);
          return;
        default:
      }
    };
    return realtimeClient().subscribe(userChannelOf(myId), onMessage);
  }, [myId, stream_id, room, queryClient]);
}

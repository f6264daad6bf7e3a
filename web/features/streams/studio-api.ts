/** The broadcaster's live view: the session's earnings and tips, the ingest's health, ending the stream. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { streams, tips } from '../../../common/api/calls';
import { call, isApiError } from '../../api/client';
import { streamKeys } from '../../api/content-keys';

export const studioKeys = {
  session: (id: number) => [...streamKeys.all, 'live-session', id] as const,
  ingest: (id: number) => [...streamKeys.all, 'ingest-health', id] as const,
};

/** Viewers are counted from presence: looked up again this often (tips refresh it as they arrive). */
const SESSION_POLL_MS = 15_000;
/** The ingest measures over 5 s; reading it more often shows nothing new. */
const INGEST_POLL_MS = 5_000;

const noRetryOnRefusal = (count: number, error: unknown) => !isApiError(error) && count < 2;

export function useLiveSession(id: number, enabled: boolean) {
  return useQuery({
    queryKey: studioKeys.session(id),
    queryFn: () => call(tips.liveSession, { id }),
    enabled,
    refetchInterval: SESSION_POLL_MS,
    retry: noRetryOnRefusal,
  });
}

export function useIngestHealth(id: number, enabled: boolean) {
  return useQuery({
    queryKey: studioKeys.ingest(id),
    queryFn: async () => (await call(streams.streamIngestHealth, { id })).ingest,
    enabled,
    refetchInterval: INGEST_POLL_MS,
    retry: noRetryOnRefusal,
  });
}

/** Ends the broadcast; the dashboard then loads the broadcaster's next (hidden) stream. */
export function useEndStream(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(streams.endStream, { id }),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: studioKeys.session(id) });
      queryClient.removeQueries({ queryKey: studioKeys.ingest(id) });
      await queryClient.invalidateQueries({ queryKey: streamKeys.own() });
    },
  });
}

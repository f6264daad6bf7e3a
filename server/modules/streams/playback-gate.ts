/**
 * Who may fetch a stream's video (the media routes' verifier). A segment needs a valid token for the
 * stream. A playlist (players fetch it again every second or two) also needs the fetcher to be the
 * viewer the token was signed for, and that viewer to pass the watch rules and the pay wall now: a ban,
 * an audience change or a price rise stops the video at the next fetch. Decisions are kept a few seconds
 * and forgotten at once when the stream's access changes on this instance.
 */
import type { FastifyRequest } from 'fastify';
import type { DomainEventHub } from '../../platform/events';
import type { PlaybackVerifier } from '../../platform/media/hls-routes';
import type { PlaybackTokens } from '../../platform/media/playback-tokens';
import { playbackViewer, type StreamsService, type Viewer } from './service';
import { viewerOf } from './viewer';
import './events';

const DECISION_TTL_MS = 3_000;
const MAX_DECISIONS = 50_000;

export function createPlaybackGate(deps: { streams: StreamsService; tokens: PlaybackTokens; events: DomainEventHub; now?: () => number }): PlaybackVerifier {
  const now = deps.now ?? Date.now;
  const decided = new Map<string, { at: number; allowed: boolean }>();
  const forget = ({ streamId }: { streamId: number }) => {
    for (const key of decided.keys()) if (key.startsWith(`${streamId} `)) decided.delete(key);
  };
  deps.events.on('stream.access-changed', forget);
  deps.events.on('stream.viewer-banned', forget);

  /** The fetcher as the viewer the token names, or null when it is someone else. */
  async function fetcherAs(signedFor: string, request: FastifyRequest): Promise<Viewer | null> {
    const fetcher = viewerOf(request, await request.currentPrincipal());
    // The player fetches from the media path, which names no skin: the token says which one the viewer watches in.
    const viewer = { ...fetcher, skin: signedFor.slice(signedFor.lastIndexOf('|') + 1) as Viewer['skin'] };
    return playbackViewer(viewer) === signedFor ? viewer : null;
  }

  return async (token, streamId, request, fetching) => {
    const signedFor = deps.tokens.verify(token, streamId);
    if (signedFor === null) return false;
    if (fetching === 'segment') return true;
    const viewer = await fetcherAs(signedFor, request);
    if (!viewer) return false;
    const key = `${streamId} ${signedFor}`;
    const known = decided.get(key);
    if (known && now() - known.at < DECISION_TTL_MS) return known.allowed;
    const allowed = await deps.streams.mayPlay(streamId, viewer);
    if (decided.size >= MAX_DECISIONS) decided.clear();
    decided.set(key, { at: now(), allowed });
    return allowed;
  };
}

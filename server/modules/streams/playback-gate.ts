/**
 * Who may fetch a stream's video (the media routes' verifier), asked for every playlist and every
 * segment (decision 0039). The token must be signed for this stream and for the fetching client (the
 * session, or a guest's browser cookie), the fetcher must be the viewer it names, and that viewer must
 * pass the watch rules and the pay wall now. A viewer's "may play" is kept a few seconds per instance,
 * so a player's fetch every second costs a signature and a map look-up; whatever takes access away (a
 * ban, an audience or price change, a subscription's change) forgets it on every instance over the bus
 * before the next fetch, so the next playlist or segment is refused at once.
 */
import type { FastifyRequest } from 'fastify';
import type { Bus } from '../../platform/bus/bus';
import type { DomainEventHub } from '../../platform/events';
import type { PlaybackVerifier } from '../../platform/media/hls-routes';
import type { PlaybackTokens } from '../../platform/media/playback-tokens';
import type { StreamAccess } from './access';
import { playbackClientOf, playbackViewer, viewerOf, type Viewer } from './viewer';
import './events';

/** The longest a viewer whose access ended with no event (a paid period running out) may still fetch. */
export const DECISION_TTL_MS = 3_000;
const MAX_DECISIONS = 50_000;
/** The bus channel every instance's gate hears revocations on. */
export const REVOKED_CHANNEL = 'playback:revoked';

/** Whose playback decisions to forget: a stream's viewers, a user's on every stream, or that user's on one stream. */
export type Revocation = { streamId: number; userId?: number } | { userId: number; streamId?: undefined };

export function createPlaybackGate(deps: {
  access: Pick<StreamAccess, 'mayPlay'>;
  tokens: PlaybackTokens;
  events: DomainEventHub;
  bus: Bus;
  now?: () => number;
}): PlaybackVerifier & { listen(): Promise<void> } {
  const now = deps.now ?? Date.now;
  const allowed = createDecisions(now);

  const revoke = async (revocation: Revocation) => {
    allowed.forget(revocation);
    await deps.bus.publish(REVOKED_CHANNEL, revocation);
  };
  deps.events.on('stream.access-changed', ({ streamId }) => revoke({ streamId }));
  deps.events.on('stream.viewer-banned', ({ streamId, userId }) => revoke({ streamId, userId }));
  deps.events.on('stream.playback-changed', ({ streamId, userId }) => revoke(userId === undefined ? { streamId } : { streamId, userId }));
  // From the event outbox: a subscription's end revokes its playback even after a crash (revoking twice is harmless).
  deps.events.onDurable('subscription.changed', ({ subscriberId }) => revoke({ userId: subscriberId }));

  /** The fetcher as the viewer the token names, or null when it is someone else. */
  async function fetcherAs(signedFor: string, request: FastifyRequest): Promise<Viewer | null> {
    const fetcher = viewerOf(request, await request.currentPrincipal());
    // The player fetches from the media path, which names no skin: the token says which one the viewer watches in.
    const viewer = { ...fetcher, skin: signedFor.slice(signedFor.lastIndexOf('|') + 1) as Viewer['skin'] };
    return playbackViewer(viewer) === signedFor ? viewer : null;
  }

  const verify: PlaybackVerifier = async (token, streamId, request) => {
    const signedFor = deps.tokens.verify(token, streamId, await playbackClientOf(request));
    if (signedFor === null) return false;
    const viewer = await fetcherAs(signedFor, request);
    if (!viewer) return false;
    if (allowed.has(streamId, signedFor)) return true;
    const since = allowed.generation();
    const mayPlay = await deps.access.mayPlay(streamId, viewer);
    // A refusal is not kept: a viewer who pays or subscribes plays at their next fetch.
    if (mayPlay) allowed.keep(streamId, signedFor, viewer.principal?.userId ?? null, since);
    return mayPlay;
  };

  return Object.assign(verify, {
    /** Hears every instance's revocations (this one's too: forgetting twice is harmless). */
    async listen() {
      await deps.bus.subscribe(REVOKED_CHANNEL, (message) => allowed.forget(message as Revocation));
      // Revocations published while the bus was away are lost: start afresh.
      deps.bus.onResume?.(() => allowed.forgetAll());
    },
  });
}

/** The "may play" decisions of one instance: per stream, per viewer, with the user they are about (indexed by user too). */
function createDecisions(now: () => number) {
  const byStream = new Map<number, Map<string, { at: number; userId: number | null }>>();
  /** The streams each signed-in user has decisions on: a subscription's change forgets them without a scan. */
  const streamsOfUser = new Map<number, Set<number>>();
  let size = 0;
  // Bumped by every revocation: a decision computed across one is not kept (it may predate the change).
  let generation = 0;

  function unindex(userId: number, streamId: number) {
    const streams = streamsOfUser.get(userId);
    streams?.delete(streamId);
    if (streams?.size === 0) streamsOfUser.delete(userId);
  }

  function forgetOn(streamId: number, userId: number | undefined) {
    const viewers = byStream.get(streamId);
    if (!viewers) return;
    for (const [key, decision] of viewers) {
      if (userId !== undefined && decision.userId !== userId) continue;
      viewers.delete(key);
      size -= 1;
      if (decision.userId !== null) unindex(decision.userId, streamId);
    }
    if (viewers.size === 0) byStream.delete(streamId);
  }

  return {
    generation: () => generation,
    has(streamId: number, viewer: string): boolean {
      const found = byStream.get(streamId)?.get(viewer);
      return Boolean(found && now() - found.at < DECISION_TTL_MS);
    },
    keep(streamId: number, viewer: string, userId: number | null, since: number) {
      if (since !== generation) return;
      if (size >= MAX_DECISIONS) this.forgetAll();
      let viewers = byStream.get(streamId);
      if (!viewers) byStream.set(streamId, (viewers = new Map()));
      if (!viewers.has(viewer)) size += 1;
      viewers.set(viewer, { at: now(), userId });
      if (userId !== null) streamsOfUser.set(userId, (streamsOfUser.get(userId) ?? new Set()).add(streamId));
    },
    forget(revocation: Revocation) {
      generation += 1;
      if (revocation.streamId !== undefined) return forgetOn(revocation.streamId, revocation.userId);
      for (const streamId of [...(streamsOfUser.get(revocation.userId) ?? [])]) forgetOn(streamId, revocation.userId);
    },
    forgetAll() {
      generation += 1;
      byStream.clear();
      streamsOfUser.clear();
      size = 0;
    },
  };
}

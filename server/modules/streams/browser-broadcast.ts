/**
 * Going live from the browser (decision 0082): the WebSocket upgrade the dashboard's broadcaster panel
 * opens. Who may open it is decided before the upgrade (an HTTP refusal the page can read); the frames
 * are the platform's browser feed (platform/media/browser-feed.ts), published to the RTMP ingest with
 * the owner's key, so the stream is the same as an encoder's for everyone downstream.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { BROWSER_BROADCAST_CLOSE, BROWSER_BROADCAST_PATH } from '../../../common/browser-broadcast';
import { MSG } from '../../../common/messages';
import { ACCESS } from '../../platform/http/access';
import { appError, conflict, unauthorized } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import { relayBrowserFeed } from '../../platform/media/browser-feed';
import { refuseOtherSites } from '../../platform/realtime/gateway';
import type { AccountsService } from '../accounts';
import type { Broadcasting } from './broadcasting';
import type { StreamReads } from './stream-reads';

export interface BrowserBroadcastDeps {
  broadcasting: Pick<Broadcasting, 'mayBroadcastFromBrowser'>;
  reads: Pick<StreamReads, 'findStream'>;
  accounts: Pick<AccountsService, 'sessionUser'>;
  /** Where this instance publishes with a key; null when it has no ingest to publish to. */
  publishUrl: (streamKey: string) => string | null;
  ffmpegPath: string;
}

const query = z.object({ id: z.coerce.number().int().positive(), service: z.string().optional() });

/** What the upgrade decided, for the socket's handler. */
interface Admitted {
  streamId: number;
  streamKey: string;
  pushUrl: string;
}

const docs: RouteDocs = {
  security: [{ session: [] }],
  parameters: [
    { name: 'id', in: 'query', required: true, schema: { type: 'integer' }, description: 'The stream, the caller’s own' },
    { name: 'service', in: 'query', required: false, schema: { type: 'string' }, description: 'The skin, for skins other than the default' },
  ],
  responses: {
    101: { description: 'Switching Protocols: binary frames of the page’s MediaRecorder recording (at most 64 KiB each); closed with 4400 (a text frame), 1009 (a frame too large), 4408 (nothing sent for 10 s), 4410 (the broadcast ended), 4422 (the media could not be read or published), 4429 (the server fell behind).' },
  },
  refusals: [401, 403, 404, 409],
  description: 'Go live from the browser: the dashboard sends its camera’s recording here; the server publishes it to the RTMP ingest as an encoder would. Refused before the upgrade: 400 without a stream id or before the broadcast setup was saved; 401 not signed in; 403 a page of another site, or an account that may not go live; 404 not the caller’s stream; 409 the stream has ended, or another browser session sends it already.',
};

/** How long End Stream may take to mark the row after the ingest dropped the feed. */
const ENDED_SETTLES_MS = 2_000;

export function registerBrowserBroadcastRoute(app: FastifyInstance, deps: BrowserBroadcastDeps): void {
  /** Streams this instance receives from a browser now: one session per stream. */
  const sending = new Set<number>();
  const admitted = new WeakMap<FastifyRequest, Admitted>();

  async function admit(request: FastifyRequest) {
    const principal = await request.currentPrincipal();
    if (!principal) throw unauthorized();
    const streamId = (request.query as z.output<typeof query>).id;
    await deps.broadcasting.mayBroadcastFromBrowser(streamId, principal);
    if (sending.has(streamId)) throw conflict(MSG.browserBroadcastAlreadyOn);
    const me = await deps.accounts.sessionUser(principal.userId, { skin: request.skin, origin: request.publicOrigin }, principal);
    const pushUrl = me.broadcast_key ? deps.publishUrl(me.broadcast_key) : null;
    if (!me.broadcast_key || !pushUrl) throw appError('unavailable');
    // Held from here, whether the handshake completes or not, until the connection closes.
    sending.add(streamId);
    request.raw.socket.once('close', () => sending.delete(streamId));
    admitted.set(request, { streamId, streamKey: me.broadcast_key, pushUrl });
  }

  /**
   * ffmpeg stopped by itself: an ended broadcast (End Stream, a moderator) says so, anything else is the
   * media's fault. End Stream drops the feed before it marks the row, so the row is given a moment.
   */
  async function whyStopped(streamId: number): Promise<number> {
    for (const started = Date.now(); Date.now() - started < ENDED_SETTLES_MS; await new Promise((r) => setTimeout(r, 250))) {
      if ((await deps.reads.findStream(streamId)).endedAt) return BROWSER_BROADCAST_CLOSE.streamEnded;
    }
    return BROWSER_BROADCAST_CLOSE.unreadable;
  }

  const schema = { tags: ['streams'], summary: 'Go live from the browser: the recording’s WebSocket' };
  app.get(BROWSER_BROADCAST_PATH, {
    websocket: true,
    preValidation: refuseOtherSites,
    // After the query's validation (400 naming the field).
    preHandler: admit,
    schema: { ...schema, querystring: query },
    config: { access: ACCESS.stream(), openapi: docs },
  }, (socket, request) => {
    const entry = admitted.get(request);
    if (!entry) return socket.close(1011);
    void relayBrowserFeed({
      socket,
      pushUrl: entry.pushUrl,
      streamKey: entry.streamKey,
      ffmpegPath: deps.ffmpegPath,
      log: request.log,
      closeCodeWhenStopped: () => whyStopped(entry.streamId),
    }).catch((err: unknown) => request.log.error({ err }, 'browser feed failed'));
  });
}

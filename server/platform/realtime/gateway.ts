/**
 * The WebSocket gateway at `/ws` (docs/architecture.md §7). Modules decide who may subscribe and what a send
 * does through the injected handlers: the platform imports no module.
 */
import { ACCESS } from '../http/access';
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { z } from 'zod';
import {
  clientFrame, clientId, FRAME_MAX_BYTES, type HistoryMessage, type RealtimeMessage, type ReplayCursor, type SendFrame, type ServerFrame,
} from '../../../common/realtime';
import { RESYNC_AFTER_OUTAGE, SERVER_RESTARTING } from '../../../common/realtime-channels';
import type { Bus } from '../bus/bus';
import type { Principal } from '../http/auth';
import { FORGET_CHANNEL, type ForgetTarget } from '../http/session-cache';
import { MSG } from '../../../common/messages';
import { sendError } from '../http/error-handler';
import { AppError, tooManyRequests } from '../http/errors';
import type { RouteDocs } from '../http/openapi';
import { createFanout, type Deliver, messageFrame, type Pacing } from './fanout';
import type { Presence } from './presence';
import { frameWriter, prepareFrame, type PreparedFrame } from './wire';
import { databaseUnavailable, unavailableLogFields } from '../db/unavailable';

export type PresenceChange = 'CONNECTED' | 'DISCONNECTED';

export interface RealtimeHandlers {
  /**
   * Throws an AppError to refuse; answers the history sent with `subscribed`: with `after`, on a channel
   * that keeps lines, what came after it and whether some of it was skipped (`replay`).
   */
  authorizeSubscribe(channel: string, principal: Principal | null, request: FastifyRequest, after?: ReplayCursor): Promise<SubscribeAnswer>;
  /** Throws an AppError to refuse; publishing is the handler's business. */
  handleSend(channel: string, frame: SendFrame, principal: Principal | null, request: FastifyRequest): Promise<void>;
  /** Channels whose members are counted (a stream's viewers). */
  countsPresence(channel: string): boolean;
  /** Who a socket counts as: one key per signed-in user, one per guest browser. */
  presenceKey(principal: Principal | null, request: FastifyRequest): string;
  /** A signed-in member's first socket on this instance joined, or its last one left, a counted channel. */
  onPresenceChange(channel: string, principal: Principal, change: PresenceChange): void;
}

export interface SubscribeAnswer {
  history: HistoryMessage[];
  replay?: { skipped: boolean };
  /** The subscriber is on the channel but not one of its counted members (a stream's own broadcaster). */
  uncounted?: boolean;
}

export interface GatewayOptions {
  /** Counts members of the channels the handlers count. */
  presence: Pick<Presence, 'join' | 'leave'>;
  heartbeatMs?: number;
  maxBufferedBytes?: number;
  /** How long a socket acts on the permissions it had when it was checked last. */
  principalTtlMs?: number;
  /** The time in ms (tests move it instead of waiting out the TTL). */
  now?: () => number;
  /** Open sockets one client address may hold on this instance. */
  maxSocketsPerAddress?: number;
  /** Open sockets one signed-in user may hold on this instance. */
  maxSocketsPerUser?: number;
  /** How a busy channel's lines are paced into frames (fanout.ts PACING). */
  pacing?: Partial<Pacing>;
}

/** Subscribes a socket may send in a burst, refilled at one per second (a page joins a handful). */
const SUBSCRIBE_BURST = 20;

const MAX_CHANNELS_PER_SOCKET = 20;
/** A socket's frames are handled one after another; a client that queues more than this is dropped. */
const MAX_QUEUED_FRAMES = 50;
/** Removals and re-checks are broadcast to every instance: the sockets may be anywhere. */
const REMOVALS_BUS_CHANNEL = 'rt-control:remove';
const RECHECKS_BUS_CHANNEL = 'rt-control:recheck';
const DISCONNECTS_BUS_CHANNEL = 'rt-control:disconnect';
/** The close code a socket of a user whose account ended gets (4000–4999: the application's own). */
export const ACCOUNT_CLOSED_CODE = 4001;

interface Removal {
  userId: number;
  channels: string[];
  farewell: RealtimeMessage;
}

/** What the gateway keeps of one socket, for removing a user from channels. */
interface Connection {
  joined: Map<string, Deliver>;
  deliver: Deliver;
  unsubscribe(channel: string): Promise<void>;
  /** Asks the handlers again whether the socket may stay on the channel; takes it off if not. */
  recheck(channel: string): Promise<void>;
  /** Closes the socket (its close handler leaves the channels). */
  close(code: number, reason: string): void;
  /** The session of the socket's cookie, once known. */
  sessionId: string | null;
  /** The session or its user changed: the next send reads the principal again; with `recheck`, each channel is asked again now. */
  forget(recheck: boolean): void;
}

/**
 * A browser sends the session cookie with any page's WebSocket (SameSite does not cover it): refuse
 * pages of other sites before the upgrade. Clients without an Origin header are not browsers.
 */
export async function refuseOtherSites(request: FastifyRequest, reply: FastifyReply) {
  const origin = request.headers.origin;
  const ownOrigins = [request.publicOrigin, `${request.protocol}://${request.host}`];
  if (origin !== undefined && !ownOrigins.includes(origin)) {
    return sendError(reply, 'forbidden', MSG.liveConnectionRefused);
  }
}

/** Adds `delta` to a count, forgetting counts that reach zero. */
function countIn<K>(counts: Map<K, number>, key: K, delta: number) {
  const next = (counts.get(key) ?? 0) + delta;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

const anySend = z.object({ op: z.literal('send'), id: clientId });

/** A send that fails the schema is still answered by its id, so its sender is not left waiting. */
function notUnderstood(parsed: unknown): ServerFrame {
  const send = anySend.safeParse(parsed);
  return { op: 'error', ...(send.success ? { id: send.data.id } : {}), code: 'bad_frame', message: MSG.frameNotUnderstood };
}

/** The upgrade, as the API document shows it; the frames are docs/architecture.md §7 and common/realtime.ts. */
const upgradeDocs: RouteDocs = {
  security: [{}, { session: [] }],
  parameters: [{ name: 'service', in: 'query', required: false, schema: { type: 'string' }, description: 'The skin, for skins other than the default' }],
  responses: {
    101: { description: 'Switching Protocols: a WebSocket carrying JSON frames (subscribe, COMMENT, LIKE from clients; messages of the joined channels from the server).' },
    403: { description: 'A page of another site (its Origin header) may not connect.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } } },
    404: { description: 'Not a WebSocket upgrade request.' },
  },
  description: 'One WebSocket per tab, authenticated by the session cookie when there is one.',
};

function errorFrame(error: unknown, where: { channel?: string; id?: string }, request: FastifyRequest): ServerFrame {
  if (error instanceof AppError) return { op: 'error', ...where, code: error.code, message: error.message };
  const unavailable = databaseUnavailable(error);
  if (unavailable) {
    request.log.warn(unavailableLogFields(error, unavailable), 'database unavailable: frame answered unavailable');
    return { op: 'error', ...where, code: 'unavailable', message: unavailable === 'timeout' ? MSG.databaseBusy : MSG.databaseUnreachable };
  }
  request.log.error({ err: error }, 'realtime frame failed');
  return { op: 'error', ...where, code: 'internal', message: MSG.internal };
}

export async function installRealtimeGateway(app: FastifyInstance, bus: Bus, handlers: RealtimeHandlers, options: GatewayOptions) {
  const { presence } = options;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const maxBuffered = options.maxBufferedBytes ?? 1_048_576;
  const principalTtlMs = options.principalTtlMs ?? 30_000;
  const now = options.now ?? Date.now;
  const fanout = createFanout(bus, { pacing: options.pacing });
  const alive = new WeakSet<WebSocket>();
  // The gateway's own sockets: the server may hold other WebSocket routes (a browser's broadcast), whose
  // sockets its heartbeat, restarts and resyncs must leave alone.
  const sockets = new Set<WebSocket>();
  const connectionsOfUser = new Map<number, Set<Connection>>();
  const connections = new Set<Connection>();
  const socketsOfAddress = new Map<string, number>();
  const socketsOfUser = new Map<number, number>();
  const maxPerAddress = options.maxSocketsPerAddress ?? 50;
  const maxPerUser = options.maxSocketsPerUser ?? 20;

  /**
   * Refuses the upgrade (429) of a client already holding its share of sockets; otherwise holds a place
   * until the connection closes, whether the handshake completes or not (check and hold in one turn).
   */
  async function refuseCrowds(request: FastifyRequest, reply: FastifyReply) {
    const userId = (await request.currentPrincipal().catch(() => null))?.userId;
    if ((socketsOfAddress.get(request.ip) ?? 0) >= maxPerAddress || (userId !== undefined && (socketsOfUser.get(userId) ?? 0) >= maxPerUser)) {
      return sendError(reply, 'rate_limited', MSG.tooManyConnections);
    }
    countIn(socketsOfAddress, request.ip, +1);
    if (userId !== undefined) countIn(socketsOfUser, userId, +1);
    request.raw.socket.once('close', () => {
      countIn(socketsOfAddress, request.ip, -1);
      if (userId !== undefined) countIn(socketsOfUser, userId, -1);
    });
  }

  // Registered before the plugin's own preClose (which closes sockets with no code): a graceful stop
  // tells every socket to reconnect, and the pages spread their returns over RESTART_JITTER_MS.
  app.addHook('preClose', async () => {
    for (const socket of sockets) socket.close(SERVER_RESTARTING.code, SERVER_RESTARTING.reason);
  });

  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // A frame over the size limit or a broken frame (ws's own checks, codes WS_ERR_…) is a client's
    // doing: it closes that socket and is noted at info, without a stack. Anything else is ours.
    errorHandler(error, socket, request) {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'string' && code.startsWith('WS_ERR_')) request.log.info({ reason: error.message, code }, 'realtime socket closed on a protocol error');
      else request.log.error({ err: error }, 'realtime socket failed');
      socket.terminate();
    },
  });

  const heartbeat = setInterval(() => {
    for (const socket of sockets) {
      if (!alive.has(socket)) {
        socket.terminate();
        continue;
      }
      alive.delete(socket);
      socket.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();
  app.addHook('onClose', async () => clearInterval(heartbeat));

  const stopRemovals = await bus.subscribe(REMOVALS_BUS_CHANNEL, (message) => {
    const { userId, channels, farewell } = message as Removal;
    for (const connection of connectionsOfUser.get(userId) ?? []) {
      for (const channel of channels) {
        if (!connection.joined.has(channel)) continue;
        connection.deliver(prepareFrame(messageFrame(channel, farewell)));
        connection.unsubscribe(channel).catch((error: unknown) => app.log.warn({ err: error }, 'realtime removal failed'));
      }
    }
  });
  app.addHook('onClose', async () => stopRemovals());

  const stopRechecks = await bus.subscribe(RECHECKS_BUS_CHANNEL, (message) => {
    const { channel } = message as { channel: string };
    for (const connection of connections) {
      if (!connection.joined.has(channel)) continue;
      connection.recheck(channel).catch((error: unknown) => app.log.warn({ err: error }, 'realtime recheck failed'));
    }
  });
  app.addHook('onClose', async () => stopRechecks());

  const stopDisconnects = await bus.subscribe(DISCONNECTS_BUS_CHANNEL, (message) => {
    const { userId } = message as { userId: number };
    for (const connection of connectionsOfUser.get(userId) ?? []) connection.close(ACCOUNT_CLOSED_CODE, 'account closed');
  });
  app.addHook('onClose', async () => stopDisconnects());

  // A sign-out, suspension or permission change reaches open sockets at once, not after the principal's TTL.
  const stopForgets = await bus.subscribe(FORGET_CHANNEL, (message) => {
    const target = message as ForgetTarget;
    const affected = 'userId' in target ? [...(connectionsOfUser.get(target.userId) ?? [])]
      : 'sessionId' in target ? [...connections].filter((connection) => connection.sessionId === target.sessionId)
        : [...connections];
    // After this turn: the session cache on this instance drops its entry in the same message's handlers.
    setImmediate(() => {
      for (const connection of affected) connection.forget(!('everyone' in target));
    });
  });
  app.addHook('onClose', async () => stopForgets());

  // Frames published by other instances while the bus was down may never have reached these sockets: they
  // reconnect (spread over RESTART_JITTER_MS) and ask for the lines and tips after the last they saw.
  const stopResyncs = bus.onStateChange(({ state }) => {
    if (state !== 'up') return;
    for (const socket of sockets) socket.close(RESYNC_AFTER_OUTAGE.code, RESYNC_AFTER_OUTAGE.reason);
  });
  app.addHook('onClose', async () => stopResyncs());

  const upgradeSchema = { tags: ['realtime'], summary: 'The realtime WebSocket: chat, likes and stream events' };
  app.get('/ws', { websocket: true, preValidation: [refuseOtherSites, refuseCrowds], schema: upgradeSchema, config: { access: ACCESS.public, openapi: upgradeDocs } }, (socket, request) => {
    const principal = request.currentPrincipal().catch(() => null);
    const memberKey = principal.then((p) => handlers.presenceKey(p, request));
    // Sends act on a recent principal: a logout, suspension or lost permission applies within the TTL.
    let current = principal;
    let checkedAt = now();
    const currentPrincipal = () => {
      if (now() - checkedAt > principalTtlMs) {
        current = request.reloadPrincipal().catch(() => null);
        checkedAt = now();
      }
      return current;
    };
    const joined = new Map<string, Deliver>();
    alive.add(socket);
    sockets.add(socket);

    const writable = () => {
      if (socket.readyState !== socket.OPEN) return false;
      // A client that does not read is dropped before its backlog grows the server's memory.
      if (socket.bufferedAmount > maxBuffered) {
        socket.terminate();
        return false;
      }
      return true;
    };
    const writeFrame = frameWriter(socket);
    const deliver: Deliver = (frame) => {
      if (writable()) writeFrame(frame);
    };
    const send = (frame: ServerFrame) => {
      if (writable()) socket.send(JSON.stringify(frame));
    };

    let subscribeTokens = SUBSCRIBE_BURST;
    let tokensAt = now();
    function takeSubscribeToken() {
      subscribeTokens = Math.min(SUBSCRIBE_BURST, subscribeTokens + (now() - tokensAt) / 1000);
      tokensAt = now();
      if (subscribeTokens < 1) throw tooManyRequests(MSG.subscribingTooFast);
      subscribeTokens -= 1;
    }

    async function subscribe(channel: string, after: ReplayCursor | undefined) {
      takeSubscribeToken();
      if (!joined.has(channel) && joined.size >= MAX_CHANNELS_PER_SOCKET) throw tooManyRequests(MSG.tooManyChannels);
      const who = await currentPrincipal();
      const key = await memberKey;
      // Subscribing again answers the history again, without a second membership.
      if (joined.has(channel)) {
        const { history, replay } = await handlers.authorizeSubscribe(channel, who, request, after);
        send({ op: 'subscribed', channel, history, ...(replay ? { replay } : {}) });
        return;
      }
      // On the fan-out before the history is read, holding the channel's frames until `subscribed` has gone:
      // a line published meanwhile is in the history or after it (the page keeps a line once), never lost.
      const held: PreparedFrame[] = [];
      let holding = true;
      const member: Deliver = (frame) => (holding ? held.push(frame) : deliver(frame));
      await fanout.join(channel, member);
      let answer: SubscribeAnswer;
      try {
        answer = await handlers.authorizeSubscribe(channel, who, request, after);
      } catch (error) {
        await fanout.leave(channel, member);
        throw error;
      }
      if (socket.readyState !== socket.OPEN || joined.has(channel)) return fanout.leave(channel, member);
      joined.set(channel, member);
      if (handlers.countsPresence(channel) && !answer.uncounted && presence.join(channel, key) && who) handlers.onPresenceChange(channel, who, 'CONNECTED');
      send({ op: 'subscribed', channel, history: answer.history, ...(answer.replay ? { replay: answer.replay } : {}) });
      holding = false;
      for (const frame of held.splice(0)) deliver(frame);
    }

    async function unsubscribe(channel: string) {
      const member = joined.get(channel);
      if (!member) return;
      joined.delete(channel);
      if (handlers.countsPresence(channel) && presence.leave(channel, await memberKey)) {
        const who = await principal;
        if (who) handlers.onPresenceChange(channel, who, 'DISCONNECTED');
      }
      await fanout.leave(channel, member);
    }

    async function recheck(channel: string) {
      try {
        await handlers.authorizeSubscribe(channel, await currentPrincipal(), request);
      } catch (error) {
        await unsubscribe(channel);
        send(errorFrame(error, { channel }, request));
      }
    }

    const connection: Connection = {
      joined,
      deliver,
      unsubscribe,
      recheck,
      close: (code, reason) => socket.close(code, reason),
      sessionId: null,
      forget(recheckChannels) {
        checkedAt = Number.NEGATIVE_INFINITY;
        if (!recheckChannels) return;
        for (const channel of [...joined.keys()]) recheck(channel).catch((error: unknown) => request.log.warn({ err: error }, 'realtime recheck failed'));
      },
    };
    connections.add(connection);
    void request.currentSession().then((session) => {
      connection.sessionId = session?.id ?? null;
    }, () => undefined);
    void principal.then((who) => {
      if (!who || socket.readyState > socket.OPEN) return;
      const mine = connectionsOfUser.get(who.userId) ?? new Set();
      mine.add(connection);
      connectionsOfUser.set(who.userId, mine);
    });

    async function handle(raw: string) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        send({ op: 'error', code: 'bad_frame', message: MSG.frameNotJson });
        return;
      }
      const frame = clientFrame.safeParse(parsed);
      if (!frame.success) {
        send(notUnderstood(parsed));
        return;
      }
      const f = frame.data;
      if (f.op === 'ping') return send({ op: 'pong' });
      if (f.op === 'pong') return;
      if (f.op === 'unsubscribe') return unsubscribe(f.channel);
      if (f.op === 'subscribe') {
        try {
          await subscribe(f.channel, f.after);
        } catch (error) {
          send(errorFrame(error, { channel: f.channel }, request));
        }
        return;
      }
      try {
        await handlers.handleSend(f.channel, f, await currentPrincipal(), request);
        send({ op: 'ack', id: f.id });
      } catch (error) {
        send(errorFrame(error, { channel: f.channel, id: f.id }, request));
      }
    }

    let queue: Promise<void> = Promise.resolve();
    let queued = 0;
    socket.on('pong', () => alive.add(socket));
    socket.on('message', (data, isBinary) => {
      alive.add(socket);
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
      if (isBinary || size > FRAME_MAX_BYTES) {
        send({ op: 'error', code: 'bad_frame', message: MSG.frameTooLong });
        return;
      }
      // One frame at a time: a burst cannot run checks side by side (rate limits, channel cap).
      if (queued >= MAX_QUEUED_FRAMES) {
        socket.terminate();
        return;
      }
      queued += 1;
      const raw = data.toString();
      queue = queue
        .then(() => handle(raw))
        .catch((error: unknown) => send(errorFrame(error, {}, request)))
        .finally(() => {
          queued -= 1;
        });
    });
    socket.on('close', () => {
      sockets.delete(socket);
      connections.delete(connection);
      void principal.then((who) => {
        const mine = who ? connectionsOfUser.get(who.userId) : undefined;
        if (!who || !mine) return;
        mine.delete(connection);
        if (mine.size === 0) connectionsOfUser.delete(who.userId);
      });
      for (const channel of [...joined.keys()]) {
        unsubscribe(channel).catch((error: unknown) => request.log.warn({ err: error }, 'realtime unsubscribe failed'));
      }
    });
  });

  return {
    publish: fanout.publish,
    /** Sends `farewell` to the user's sockets on those channels and takes them off, on every instance. */
    removeFromChannels: (userId: number, channels: string[], farewell: RealtimeMessage) =>
      bus.publish(REMOVALS_BUS_CHANNEL, { userId, channels, farewell } satisfies Removal),
    /** Every socket on the channel, on every instance, is checked again; those no longer allowed leave with an error frame. */
    recheckChannel: (channel: string) => bus.publish(RECHECKS_BUS_CHANNEL, { channel }),
    /** Closes every socket of the user, on every instance (the account was deleted). */
    disconnectUser: (userId: number) => bus.publish(DISCONNECTS_BUS_CHANNEL, { userId }),
  };
}

export type RealtimeGateway = Awaited<ReturnType<typeof installRealtimeGateway>>;

/**
 * The WebSocket gateway at `/ws` (ARCHITECTURE §5). Modules decide who may subscribe and what a send
 * does through the injected handlers: the platform imports no module.
 */
import websocket from '@fastify/websocket';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import {
  clientFrame, FRAME_MAX_BYTES, type RealtimeMessage, type SendFrame, type ServerFrame,
} from '../../../common/realtime';
import type { Bus } from '../bus/bus';
import type { Principal } from '../http/auth';
import { AppError } from '../http/errors';
import { createFanout, type Deliver } from './fanout';

export interface RealtimeHandlers {
  /** Throws an AppError to refuse; answers the history sent with `subscribed`. */
  authorizeSubscribe(channel: string, principal: Principal | null, request: FastifyRequest): Promise<{ history: RealtimeMessage[] }>;
  /** Throws an AppError to refuse; publishing is the handler's business. */
  handleSend(channel: string, frame: SendFrame, principal: Principal | null, request: FastifyRequest): Promise<void>;
}

export interface GatewayOptions {
  heartbeatMs?: number;
  maxBufferedBytes?: number;
}

const MAX_CHANNELS_PER_SOCKET = 20;

/**
 * A browser sends the session cookie with any page's WebSocket (SameSite does not cover it): refuse
 * pages of other sites before the upgrade. Clients without an Origin header are not browsers.
 */
async function refuseOtherSites(request: FastifyRequest, reply: FastifyReply) {
  const origin = request.headers.origin;
  const ownOrigins = [request.publicOrigin, `${request.protocol}://${request.host}`];
  if (origin !== undefined && !ownOrigins.includes(origin)) {
    return reply.status(403).send({ response: 'forbidden', message: 'This page may not open a live connection here.' });
  }
}

function errorFrame(error: unknown, where: { channel?: string; id?: string }, request: FastifyRequest): ServerFrame {
  if (error instanceof AppError) return { op: 'error', ...where, code: error.code, message: error.message };
  request.log.error({ err: error }, 'realtime frame failed');
  return { op: 'error', ...where, code: 'internal', message: 'An error occured. Please try again.' };
}

export async function installRealtimeGateway(app: FastifyInstance, bus: Bus, handlers: RealtimeHandlers, options: GatewayOptions = {}) {
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const maxBuffered = options.maxBufferedBytes ?? 1_048_576;
  const fanout = createFanout(bus);
  const alive = new WeakSet<WebSocket>();

  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  const heartbeat = setInterval(() => {
    for (const socket of app.websocketServer.clients) {
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

  app.get('/ws', { websocket: true, preValidation: refuseOtherSites }, (socket, request) => {
    const principal = request.currentPrincipal().catch(() => null);
    const joined = new Map<string, Deliver>();
    alive.add(socket);

    const send = (frame: ServerFrame) => {
      if (socket.readyState !== socket.OPEN) return;
      // A client that does not read is dropped before its backlog grows the server's memory.
      if (socket.bufferedAmount > maxBuffered) {
        socket.terminate();
        return;
      }
      socket.send(JSON.stringify(frame));
    };
    const deliver: Deliver = (channel, message) => send({ op: 'message', channel, message });

    async function subscribe(channel: string) {
      if (!joined.has(channel) && joined.size >= MAX_CHANNELS_PER_SOCKET) throw new AppError(429, 'rate_limited', 'Too many channels.');
      const { history } = await handlers.authorizeSubscribe(channel, await principal, request);
      if (socket.readyState !== socket.OPEN) return;
      // Subscribing again answers the history again, without a second membership.
      if (!joined.has(channel)) {
        const member: Deliver = (c, m) => deliver(c, m);
        joined.set(channel, member);
        await fanout.join(channel, member).catch((error: unknown) => {
          joined.delete(channel);
          throw error;
        });
      }
      send({ op: 'subscribed', channel, history });
    }

    async function unsubscribe(channel: string) {
      const member = joined.get(channel);
      if (!member) return;
      joined.delete(channel);
      await fanout.leave(channel, member);
    }

    async function handle(raw: string) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw);
      } catch {
        send({ op: 'error', code: 'bad_frame', message: 'The frame is not JSON.' });
        return;
      }
      const frame = clientFrame.safeParse(parsed);
      if (!frame.success) {
        send({ op: 'error', code: 'bad_frame', message: 'The frame is not understood.' });
        return;
      }
      const f = frame.data;
      if (f.op === 'ping') return send({ op: 'pong' });
      if (f.op === 'unsubscribe') return unsubscribe(f.channel);
      if (f.op === 'subscribe') {
        try {
          await subscribe(f.channel);
        } catch (error) {
          send(errorFrame(error, { channel: f.channel }, request));
        }
        return;
      }
      try {
        await handlers.handleSend(f.channel, f, await principal, request);
        send({ op: 'ack', id: f.id });
      } catch (error) {
        send(errorFrame(error, { channel: f.channel, id: f.id }, request));
      }
    }

    socket.on('pong', () => alive.add(socket));
    socket.on('message', (data, isBinary) => {
      alive.add(socket);
      const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer | ArrayBuffer).byteLength;
      if (isBinary || size > FRAME_MAX_BYTES) {
        send({ op: 'error', code: 'bad_frame', message: 'The frame is too long or not text.' });
        return;
      }
      handle(data.toString()).catch((error: unknown) => send(errorFrame(error, {}, request)));
    });
    socket.on('close', () => {
      for (const channel of [...joined.keys()]) {
        unsubscribe(channel).catch((error: unknown) => request.log.warn({ err: error }, 'realtime unsubscribe failed'));
      }
    });
  });

  return { publish: fanout.publish };
}

export type RealtimeGateway = Awaited<ReturnType<typeof installRealtimeGateway>>;

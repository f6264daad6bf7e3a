/** The gateway alone, on a bare app: heartbeat and backpressure, with small limits. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { busChannelOf } from '../../../common/realtime';
import { WsClient } from '../../testing/ws-client';
import { createMemoryBus } from '../bus/memory-bus';
import type { Principal } from '../http/auth';
import { installRealtimeGateway, type GatewayOptions } from './gateway';

const bus = createMemoryBus();
const apps: FastifyInstance[] = [];

const uncounted = { join: () => false, leave: () => false };
const member: Principal = { userId: 1_000_001, role: 'user', perms: [], suspended: false };

/** A bare gateway whose sockets start signed in as `member` and are signed out when looked up again. */
async function startGateway(options: Omit<GatewayOptions, 'presence'>, sendsSeenAs: Array<Principal | null> = []): Promise<string> {
  const app = Fastify();
  apps.push(app);
  app.decorateRequest('currentPrincipal', async () => member);
  app.decorateRequest('reloadPrincipal', async () => null);
  await installRealtimeGateway(app, bus, {
    authorizeSubscribe: async (channel) => {
      if (channel.startsWith('slow:')) await new Promise((resolve) => setTimeout(resolve, 20));
      return { history: [] };
    },
    handleSend: async (_channel, _frame, principal) => {
      sendsSeenAs.push(principal);
    },
    countsPresence: () => false,
    presenceKey: () => 'guest',
    onPresenceChange: () => {},
  }, { ...options, presence: uncounted });
  return app.listen({ port: 0, host: '127.0.0.1' });
}

afterAll(async () => {
  for (const app of apps) await app.close();
  await bus.close();
});

const closed = (socket: WebSocket) => new Promise<void>((resolve) => {
  if (socket.readyState === WebSocket.CLOSED) resolve();
  else socket.once('close', () => resolve());
});

describe('the realtime gateway', () => {
  it('drops a socket that stops answering pings, and keeps one that answers', async () => {
    const baseUrl = await startGateway({ heartbeatMs: 100 });
    const dead = new WebSocket(`${baseUrl.replace('http', 'ws')}/ws`, { autoPong: false });
    const opened = new Promise((resolve) => dead.once('open', resolve));
    const healthy = await WsClient.connect(baseUrl);
    await opened;
    await closed(dead);
    // Several heartbeats later the answering socket is still there.
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(healthy.socket.readyState).toBe(WebSocket.OPEN);
    healthy.close();
  });

  it('terminates a subscriber that does not read instead of buffering for it', async () => {
    // No heartbeat during the test: only the buffer limit can close the socket.
    const baseUrl = await startGateway({ heartbeatMs: 60_000, maxBufferedBytes: 256 * 1024 });
    const slow = await WsClient.connect(baseUrl);
    expect(await slow.request({ op: 'subscribe', channel: 'stream:1' })).toMatchObject({ op: 'subscribed' });
    // The client stops reading: the kernel buffers fill, then the server's own buffer grows.
    (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = { type: 'COMMENT', payload: 'x'.repeat(64 * 1024) };
    for (let i = 0; i < 2000 && slow.socket.readyState === WebSocket.OPEN; i++) {
      await bus.publish(busChannelOf('stream:1'), big);
      if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    await closed(slow.socket);
    expect(slow.socket.readyState).toBe(WebSocket.CLOSED);
  });

  it('looks the sender up again once its check is older than the TTL (a logout or suspension applies)', async () => {
    const seen: Array<Principal | null> = [];
    const baseUrl = await startGateway({ heartbeatMs: 60_000, principalTtlMs: 100 }, seen);
    const socket = await WsClient.connect(baseUrl);
    const send = (id: string) => socket.request({ op: 'send', channel: 'stream:1', type: 'COMMENT', text: 'hi', id });
    await send('a');
    await new Promise((resolve) => setTimeout(resolve, 150));
    await send('b');
    expect(seen).toEqual([member, null]);
    socket.close();
  });

  it('handles one socket’s frames one after another, and drops a socket that floods its queue', async () => {
    const baseUrl = await startGateway({ heartbeatMs: 60_000 });
    const socket = await WsClient.connect(baseUrl);
    // Each subscribe takes 20 ms: a burst of them queues up faster than it is handled.
    for (let i = 0; i < 200; i++) socket.send({ op: 'subscribe', channel: `slow:${i + 1}` });
    await closed(socket.socket);
    expect(socket.socket.readyState).toBe(WebSocket.CLOSED);
  });
});

/** The gateway alone, on a bare app: heartbeat and backpressure, with small limits. */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { busChannelOf } from '../../../common/realtime';
import { sampleComment } from '../../../common/testing/realtime-samples';
import { eventually } from '../../testing/eventually';
import { WsClient } from '../../testing/ws-client';
import { createMemoryBus } from '../bus/memory-bus';
import type { Principal } from '../http/auth';
import { installRealtimeGateway, type GatewayOptions } from './gateway';

const bus = createMemoryBus();
const apps: FastifyInstance[] = [];

const uncounted = { join: () => false, leave: () => false };
const member: Principal = { userId: 1_000_001, role: 'user', perms: [], suspended: false };

/** Subscriptions to `gate:` channels wait here while they are checked, until the test opens the gate. */
let gate = { reached: () => {}, opened: Promise.resolve() };
const passGate = () => {
  gate.reached();
  return gate.opened;
};
function closeGate() {
  let open = () => {};
  let reached = () => {};
  const wasReached = new Promise<void>((resolve) => (reached = resolve));
  gate = { reached, opened: new Promise<void>((resolve) => (open = resolve)) };
  return { wasReached, open };
}

/** A bare gateway whose sockets start signed in as `member` and are signed out when looked up again. */
async function startGateway(options: Omit<GatewayOptions, 'presence'>, sendsSeenAs: Array<Principal | null> = [], logLines: string[] | null = null): Promise<string> {
  const app = Fastify(logLines ? { logger: { level: 'info', stream: { write: (line: string) => void logLines.push(line) } } } : {});
  apps.push(app);
  app.decorateRequest('currentPrincipal', async () => member);
  app.decorateRequest('reloadPrincipal', async () => null);
  app.decorateRequest('currentSession', async () => null);
  await installRealtimeGateway(app, bus, {
    authorizeSubscribe: async (channel) => {
      if (channel.startsWith('slow:')) await new Promise((resolve) => setTimeout(resolve, 20));
      if (channel.startsWith('gate:')) await passGate();
      return { history: [] };
    },
    handleSend: async (channel, frame, principal) => {
      sendsSeenAs.push(principal);
      // On `burst:` channels a COMMENT is published, as the chat module does after its checks.
      if (channel.startsWith('burst:') && frame.type === 'COMMENT') await bus.publish(busChannelOf(channel), sampleComment(frame.text));
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

/** The close code the socket will see; 1006 means the server terminated it without a closing handshake. */
const closeCode = (socket: WebSocket) => new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
const TERMINATED = 1006;

describe('the realtime gateway', () => {
  it('keeps what is published while a subscription is checked, and sends it after `subscribed`', async () => {
    const baseUrl = await startGateway({});
    const client = await WsClient.connect(baseUrl);
    const checking = closeGate();
    client.send({ op: 'subscribe', channel: 'gate:1' });
    await checking.wasReached;
    await bus.publish(busChannelOf('gate:1'), sampleComment('while the history was read'));
    checking.open();
    expect(await client.next()).toMatchObject({ op: 'subscribed', channel: 'gate:1' });
    expect(await client.next()).toMatchObject({ op: 'message', channel: 'gate:1', message: { text: 'while the history was read' } });
    client.close();
  });

  it('drops a socket that stops answering pings, and keeps one that answers', async () => {
    const baseUrl = await startGateway({ heartbeatMs: 100 });
    const dead = new WebSocket(`${baseUrl.replace('http', 'ws')}/ws`, { autoPong: false });
    const deadClosed = closeCode(dead);
    const healthy = await WsClient.connect(baseUrl);
    let pings = 0;
    healthy.socket.on('ping', () => (pings += 1));
    expect(await deadClosed).toBe(TERMINATED);
    // Several heartbeats later the answering socket is still there.
    await eventually(async () => pings, (n) => n >= 3);
    expect(pings).toBeGreaterThanOrEqual(3);
    expect(healthy.socket.readyState).toBe(WebSocket.OPEN);
    healthy.close();
  });

  it('terminates a subscriber that does not read instead of buffering for it, and the others of the channel get every line', async () => {
    // No heartbeat during the test: only the buffer limit can close the socket.
    const baseUrl = await startGateway({ heartbeatMs: 60_000, maxBufferedBytes: 256 * 1024 });
    const slow = await WsClient.connect(baseUrl);
    const slowClosed = closeCode(slow.socket);
    expect(await slow.request({ op: 'subscribe', channel: 'stream:1' })).toMatchObject({ op: 'subscribed' });
    const reader = await WsClient.connect(baseUrl);
    expect(await reader.request({ op: 'subscribe', channel: 'stream:1' })).toMatchObject({ op: 'subscribed' });
    let read = 0;
    reader.socket.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { op: string; messages?: unknown[] };
      read += frame.op === 'messages' ? frame.messages!.length : frame.op === 'message' ? 1 : 0;
    });
    let received = 0;
    slow.socket.on('message', () => received++);
    // The client stops reading: the kernel buffers fill, then the server's own buffer grows.
    (slow.socket as unknown as { _socket: { pause(): void } })._socket.pause();
    // 64 KB frames: the padding is a key the contract ignores.
    const big = { ...sampleComment('big'), padding: 'x'.repeat(64 * 1024) };
    let published = 0;
    for (; published < 2000 && slow.socket.readyState === WebSocket.OPEN; published++) {
      await bus.publish(busChannelOf('stream:1'), big);
      // The reader shares this process: it gets its turn after every frame, so only the paused socket falls behind.
      await new Promise((resolve) => setTimeout(resolve, published % 20 === 0 ? 5 : 1));
    }
    (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
    expect(await slowClosed).toBe(TERMINATED);
    // What was buffered for it when it was dropped never arrives.
    expect(received).toBeLessThan(published);
    slow.close();
    // The socket that reads got all of it, and is still open.
    expect(await eventually(async () => read, (n) => n >= published)).toBe(published);
    expect(reader.socket.readyState).toBe(WebSocket.OPEN);
    reader.close();
  }, 60_000);

  it('coalesces a burst of COMMENTs into messages frames that carry every line in order', async () => {
    // No saved-up budget and a long least cost per frame, so that the lines after the first surely wait.
    const baseUrl = await startGateway({ heartbeatMs: 60_000, pacing: { burstMs: 0, frameMinMs: 250 } });
    const listener = await WsClient.connect(baseUrl);
    expect(await listener.request({ op: 'subscribe', channel: 'burst:1' })).toMatchObject({ op: 'subscribed' });
    const raw: Array<{ op: string; messages?: Array<{ text: string }>; message?: { text: string } }> = [];
    listener.socket.on('message', (data) => raw.push(JSON.parse(data.toString())));
    const sender = await WsClient.connect(baseUrl);
    const texts = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    for (const [i, text] of texts.entries()) sender.send({ op: 'send', channel: 'burst:1', type: 'COMMENT', text, id: `c${i}` });
    await sender.next((f) => f.op === 'ack' && f.id === `c${texts.length - 1}`);
    const lines = () => raw.flatMap((f) => (f.op === 'messages' ? f.messages!.map((m) => m.text) : f.op === 'message' ? [f.message!.text] : []));
    await eventually(async () => lines().length, (n) => n >= texts.length);
    expect(lines()).toEqual(texts);
    // The first line went at once, alone; the rest waited for the window and went together.
    expect(raw[0]!.op).toBe('message');
    expect(raw.filter((f) => f.op === 'messages').length).toBeGreaterThan(0);
    expect(raw.length).toBeLessThan(texts.length);
    // The test client hands the lines of a batch over one by one, as the web client does.
    for (const text of texts) expect((await listener.message('COMMENT')).message.text).toBe(text);
    expect(listener.batches).toBeGreaterThan(0);
    sender.close();
    listener.close();
  });

  it('looks the sender up again once its check is older than the TTL (a logout or suspension applies)', async () => {
    const seen: Array<Principal | null> = [];
    let clock = 1_000_000;
    const baseUrl = await startGateway({ heartbeatMs: 60_000, principalTtlMs: 100, now: () => clock }, seen);
    const socket = await WsClient.connect(baseUrl);
    const send = (id: string) => socket.request({ op: 'send', channel: 'stream:1', type: 'COMMENT', text: 'hi', id });
    await send('a');
    clock += 150;
    await send('b');
    expect(seen).toEqual([member, null]);
    socket.close();
  });

  it('closes a socket that sends an over-long frame (1009) and logs it below error level, without a stack', async () => {
    const logLines: string[] = [];
    const baseUrl = await startGateway({ heartbeatMs: 60_000 }, [], logLines);
    const socket = await WsClient.connect(baseUrl);
    const closed = closeCode(socket.socket);
    socket.socket.send('x'.repeat(70 * 1024));
    expect(await closed).toBe(1009);
    const entries = () => logLines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: unknown; stack?: unknown });
    const logged = await eventually(async () => entries().some((e) => e.msg === 'realtime socket closed on a protocol error'), Boolean);
    expect(logged).toBe(true);
    expect(entries().filter((e) => e.level >= 50)).toEqual([]);
    expect(entries().some((e) => e.err !== undefined || e.stack !== undefined)).toBe(false);
  });

  it('handles one socket’s frames one after another, and drops a socket that floods its queue', async () => {
    const baseUrl = await startGateway({ heartbeatMs: 60_000 });
    const socket = await WsClient.connect(baseUrl);
    const answeredFor: string[] = [];
    socket.socket.on('message', (data) => answeredFor.push((JSON.parse(data.toString()) as { channel: string }).channel));
    const socketClosed = closeCode(socket.socket);
    // Each subscribe takes 20 ms: a burst of them queues up faster than it is handled.
    const channels = Array.from({ length: 200 }, (_, i) => `slow:${i + 1}`);
    for (const channel of channels) socket.send({ op: 'subscribe', channel });
    expect(await socketClosed).toBe(TERMINATED);
    // Answers came in the order sent (subscribed, then refusals past the channel cap), and stopped at the drop.
    expect(answeredFor.length).toBeLessThan(channels.length);
    expect(answeredFor).toEqual(channels.slice(0, answeredFor.length));
    socket.close();
  });

  it('refuses more sockets from one address, or one user, than the caps allow, and frees a place when one closes', async () => {
    /** The status the upgrade was answered with: 101 when it opened. */
    const upgrade = (baseUrl: string) => new Promise<{ status: number; socket: WebSocket }>((resolve) => {
      const socket = new WebSocket(`${baseUrl.replace('http', 'ws')}/ws`);
      socket.once('open', () => resolve({ status: 101, socket }));
      socket.once('unexpected-response', (_request, response) => resolve({ status: response.statusCode ?? 0, socket }));
    });
    const perAddress = await startGateway({ maxSocketsPerAddress: 3, maxSocketsPerUser: 100 });
    const open = await Promise.all([upgrade(perAddress), upgrade(perAddress), upgrade(perAddress)]);
    expect(open.map((o) => o.status)).toEqual([101, 101, 101]);
    expect((await upgrade(perAddress)).status).toBe(429);
    const closing = closeCode(open[0]!.socket);
    open[0]!.socket.close();
    await closing;
    await eventually(async () => (await upgrade(perAddress)).status, (status) => status === 101);

    // Every socket of this gateway belongs to the same signed-in member.
    const perUser = await startGateway({ maxSocketsPerAddress: 100, maxSocketsPerUser: 2 });
    const mine = [await upgrade(perUser), await upgrade(perUser)];
    expect(mine.map((o) => o.status)).toEqual([101, 101]);
    expect((await upgrade(perUser)).status).toBe(429);
    for (const o of [...open, ...mine]) o.socket.close();
  });

  it('limits how fast one socket joins channels, and lets it join again once its tokens refill', async () => {
    let clock = 1_000_000;
    const baseUrl = await startGateway({ now: () => clock });
    const client = await WsClient.connect(baseUrl);
    const answers = [];
    for (let i = 0; i < 25; i++) answers.push(await client.request({ op: 'subscribe', channel: `stream:${(i % 10) + 1}` }));
    const refused = answers.filter((a) => a.op === 'error');
    expect(refused.length).toBe(5);
    expect(refused[0]).toMatchObject({ code: 'rate_limited' });
    clock += 10_000;
    expect(await client.request({ op: 'subscribe', channel: 'stream:1' })).toMatchObject({ op: 'subscribed' });
    client.close();
  });
});

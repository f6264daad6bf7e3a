/**
 * A Redis outage costs nothing committed (decision 0044): two instances on one PostgreSQL database share
 * a `redis-server` of this file's own, killed and started again inside the test. Runs when
 * TEST_DATABASE_URL is set (the scaled-out project).
 */
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { suiteNeeding } from '../../testing/suite-needing';
import { startListeningSharedApps, type TestApp } from '../../testing/harness';
import { HttpSession } from '../../testing/http-session';
import { freePort, killRedis, startRedis } from '../../testing/redis-server';
import { RESYNC_AFTER_OUTAGE } from '../../../common/realtime-channels';
import { WsClient } from '../../testing/ws-client';

const closeOf = (client: WsClient) => new Promise<{ code: number; reason: string }>((resolve) => {
  client.socket.once('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() }));
});
import type { BusState, BusStateChange } from './bus';
import { createRedisBus } from './redis-bus';

suiteNeeding('postgres', 'redis-server')('a Redis outage', () => {
  let port: number;
  let redis: ChildProcess | undefined;
  let instances: Array<{ t: TestApp; baseUrl: string }> = [];
  const sockets: WsClient[] = [];

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedis(port);
    instances = await startListeningSharedApps(2, { REDIS_URL: `redis://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const { t } of instances) await t.close();
    if (redis && redis.exitCode === null) await killRedis(redis);
  });

  const bothAre = (state: BusState) =>
    expect.poll(() => instances.map(({ t }) => t.resources.bus.state()), { timeout: 10_000 }).toEqual([state, state]);

  it('acknowledges committed lines and tips, signs out everywhere, and carries lines again once Redis is back', async () => {
    const [{ t: a, baseUrl: baseA }, { baseUrl: baseB }] = instances as [{ t: TestApp; baseUrl: string }, { t: TestApp; baseUrl: string }];
    const live = await a.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const fan = await a.given.signedInUser();
    await a.given.coins(fan.user, 100);
    const onA = await WsClient.connect(baseA, fan.client.cookie('ll_session'));
    const onB = await WsClient.connect(baseB);
    sockets.push(onA, onB);
    for (const socket of [onA, onB]) expect(await socket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    expect(await onA.request({ op: 'send', channel, type: 'COMMENT', text: 'before the outage', id: 'c0' })).toEqual({ op: 'ack', id: 'c0' });
    const lastSeenOnB = await onB.message('COMMENT');
    expect(lastSeenOnB).toMatchObject({ message: { text: 'before the outage' } });

    // A second person signed in on A, whose session B has read (and keeps, while the bus is up).
    const leaver = await a.given.signedInUser();
    const leaverOnB = HttpSession.at(baseB);
    leaverOnB.setCookie('ll_session', leaver.client.cookie('ll_session')!);
    expect((await leaverOnB.get('/api/user/check-user-session')).body).toMatchObject({ is_logged_in: true, user_id: leaver.user.id });

    await killRedis(redis!);
    await bothAre('down');

    // Committed while Redis is down: answered as committed, and stored.
    for (const id of ['c1', 'c2', 'c3']) {
      expect(await onA.request({ op: 'send', channel, type: 'COMMENT', text: `during the outage ${id}`, id })).toEqual({ op: 'ack', id });
    }
    const tip = (key: string) => fan.client.request('POST', '/api/streams/send-tip', { body: { stream_id: live.streamId, amount: 10 }, headers: { 'idempotency-key': key } });
    expect((await tip('outage-tip-1')).status).toBe(200);
    expect((await tip('outage-tip-2')).body).toMatchObject({ response: 'success', balance: { CON: 80 } });
    const reader = await WsClient.connect(baseA);
    sockets.push(reader);
    const stored = await reader.request({ op: 'subscribe', channel });
    const storedTexts = (stored.history as Array<{ type: string; text?: string }>).filter((line) => line.type === 'COMMENT').map((line) => line.text);
    expect(storedTexts).toEqual(expect.arrayContaining(['during the outage c1', 'during the outage c2', 'during the outage c3']));

    // Sign-out answers and clears the cookie; B, which cannot hear of it over the bus, reads the database.
    const signedOut = await leaver.client.post('/api/user/logout');
    expect(signedOut.status).toBe(200);
    expect(String(signedOut.headers['set-cookie'])).toMatch(/ll_session=;/);
    expect((await leaverOnB.get('/api/user/check-user-session')).body).toMatchObject({ is_logged_in: false });

    const closes = [closeOf(onA), closeOf(onB)];
    redis = await startRedis(port);
    await bothAre('up');

    // B's socket is told to resync; back, it asks for what came after the last line it saw and gets what the
    // outage kept from it, then hears new lines.
    for (const closed of await Promise.all(closes)) expect(closed).toEqual({ code: RESYNC_AFTER_OUTAGE.code, reason: RESYNC_AFTER_OUTAGE.reason });
    const back = await WsClient.connect(baseB);
    const sender = await WsClient.connect(baseA, fan.client.cookie('ll_session'));
    sockets.push(back, sender);
    expect(await sender.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    const resynced = await back.request({ op: 'subscribe', channel, after: { comment: String(lastSeenOnB.message.timetoken), tip: '0' } });
    const caughtUp = (resynced.history as Array<{ type: string; text?: string }>).map((line) => (line.type === 'TIP' ? 'TIP' : line.text));
    expect(caughtUp).toEqual(['during the outage c1', 'during the outage c2', 'during the outage c3', 'TIP', 'TIP']);
    expect(caughtUp).not.toContain('before the outage');
    expect(await sender.request({ op: 'send', channel, type: 'COMMENT', text: 'after the outage', id: 'c4' })).toEqual({ op: 'ack', id: 'c4' });
    const heard = await back.next((f) => (f.message as { text?: string } | undefined)?.text === 'after the outage', 10_000);
    expect(heard).toMatchObject({ op: 'message', channel });
  }, 60_000);

  it('publishes what waited in its backlog in order once up, dropping the oldest beyond its bound and saying how many', async () => {
    const bus = await createRedisBus(`redis://127.0.0.1:${port}`, { prefix: `backlog:${process.pid}:`, backlogMaxBytes: 30 });
    try {
      const heard: unknown[] = [];
      await bus.subscribe('lines', (message) => heard.push(message));
      const changes: BusStateChange[] = [];
      bus.onStateChange((change) => changes.push(change));
      await killRedis(redis!);
      await expect.poll(() => bus.state(), { timeout: 10_000 }).toBe('down');
      // Each is 10 bytes of JSON: three fill a 30-byte backlog, and each one more pushes out the oldest.
      for (const n of [1, 2, 3, 4]) await bus.publish('lines', { line: n });
      // One that subscribes while the bus is down hears what is published once it is up.
      const late: unknown[] = [];
      await bus.subscribe('late', (message) => late.push(message));
      await bus.publish('late', { line: 5 });
      redis = await startRedis(port);
      await expect.poll(() => bus.state(), { timeout: 10_000 }).toBe('up');
      await expect.poll(() => [heard, late], { timeout: 5000 }).toEqual([[{ line: 3 }, { line: 4 }], [{ line: 5 }]]);
      expect(changes).toEqual([{ state: 'down', dropped: 0, redelivered: 0 }, { state: 'up', dropped: 2, redelivered: 3 }]);
      await bus.publish('late', { line: 6 });
      await expect.poll(() => late, { timeout: 5000 }).toEqual([{ line: 5 }, { line: 6 }]);
    } finally {
      await bus.close();
    }
  });

  it('listens to a channel first wanted while it recovers, before it says up', async () => {
    const prefix = `recovering:${process.pid}:`;
    const bus = await createRedisBus(`redis://127.0.0.1:${port}`, { prefix });
    const watcher = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, maxRetriesPerRequest: 0 });
    watcher.on('error', () => {});
    try {
      await bus.subscribe('early', () => {});
      await killRedis(redis!);
      await expect.poll(() => bus.state(), { timeout: 10_000 }).toBe('down');
      // Something in the backlog: the bus, listening again, waits a second before it publishes it and says up.
      await bus.publish('early', { line: 1 });
      redis = await startRedis(port);
      await watcher.connect();
      const listeners = async () => Number((await watcher.pubsub('NUMSUB', `${prefix}early`))[1]);
      await expect.poll(listeners, { timeout: 10_000, interval: 20 }).toBe(1);
      expect(bus.state()).toBe('down');
      const heard: unknown[] = [];
      await bus.subscribe('during', (message) => heard.push(message));
      await expect.poll(() => bus.state(), { timeout: 10_000 }).toBe('up');
      await bus.publish('during', { line: 2 });
      await expect.poll(() => heard, { timeout: 5000 }).toEqual([{ line: 2 }]);
    } finally {
      watcher.disconnect();
      await bus.close();
    }
  });
});

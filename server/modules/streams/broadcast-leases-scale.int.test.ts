/**
 * Live broadcasts across media instances that start, die (kill -9) and stop gracefully, on one
 * PostgreSQL database: each media instance is its own process (node-media-server allows one ingest
 * per process), publishing is real ffmpeg over RTMP, and everything is read through an API instance.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSharedTestApps, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { publishTestPattern, type RunningPublisher } from '../../testing/rtmp-publisher';
import { freePort, listening, startServerProcess, type ServerProcess } from '../../testing/server';

const GRACE_MS = 20_000;
const WAIT = { timeout: 30_000, interval: 250 };

interface MediaInstance {
  process: ServerProcess;
  rtmp: string;
}

interface OwnStream {
  stream_id: number;
  hidden: boolean;
  broadcast_key: string;
}

let api: TestApp;
const running: MediaInstance[] = [];

/** A media instance on the shared database; resolves once its RTMP ingest accepts connections (its start-up sweep done). */
async function startMedia(): Promise<MediaInstance> {
  const config = api.resources.config.database;
  if (config.kind !== 'postgres') throw new Error('shared instances need PostgreSQL');
  const port = await freePort();
  const process = await startServerProcess({ ROLE: 'media', DATABASE_URL: config.url, RTMP_PORT: String(port), RTMP_GRACE_MS: String(GRACE_MS), SEED_DEMO: 'off' });
  await expect.poll(() => listening(port), WAIT).toBe(true);
  const instance = { process, rtmp: `rtmp://127.0.0.1:${port}/live` };
  running.push(instance);
  return instance;
}

const killed = async (instance: MediaInstance) => {
  instance.process.child.kill('SIGKILL');
  await instance.process.exited;
};

const lookup = async (id: number) => (await api.client().get('/api/streams/stream-lookup', { id })).body.stream as { live: string; ended: boolean };
const lease = async (streamId: number) => {
  const { rows } = await api.resources.database.db.execute<{ instance_id: string; in_grace: boolean; expired: boolean }>(
    sql`select instance_id, in_grace, expires_at < now() as expired from broadcast_leases where stream_id = ${streamId}`,
  );
  return rows[0] ?? null;
};
const databaseIsPast = async (moment: string) =>
  (await api.resources.database.db.execute<{ past: boolean }>(sql`select now() > ${moment}::timestamptz as past`)).rows[0]!.past;

async function goLive(owner: HttpSession): Promise<OwnStream> {
  const own = (await owner.post('/api/streams/get-live-stream', {})).body.stream as OwnStream;
  await owner.post('/api/streams/update-stream-info', { id: own.stream_id, data: { title: 'Across instances', audience: 'PUBLIC', rating: 'G' } });
  await owner.post('/api/streams/go-live', { id: own.stream_id });
  return own;
}

const publish = (instance: MediaInstance, key: string) => publishTestPattern({ url: `${instance.rtmp}/${key}`, width: 320, height: 180 });

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('broadcasts across media instances', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    api = (await startSharedTestApps(1, { ROLE: 'api' }))[0]!;
  });
  afterAll(async () => {
    await Promise.all(running.map((m) => m.process.stop()));
    await api?.close();
  });

  it('survives another instance starting, its own instance dying and a deploy: the same stream stays LIVE, then ends once its encoder is gone', async () => {
    const owner = await api.given.signedIn(await api.given.user());
    const a = await startMedia();
    const own = await goLive(owner);
    const publishers: RunningPublisher[] = [publish(a, own.broadcast_key)];
    try {
      await expect.poll(async () => (await lookup(own.stream_id)).live, WAIT).toBe('Y');

      // Another media instance starting ends nothing it does not ingest.
      const b = await startMedia();
      expect(await lookup(own.stream_id)).toMatchObject({ live: 'Y', ended: false });
      const heldByA = await lease(own.stream_id);
      expect(heldByA).toMatchObject({ in_grace: false, expired: false });

      // A dies; the encoder reconnects to B within the grace: the same broadcast continues there.
      const { rows: [before] } = await api.resources.database.db.execute<{ expires_at: string }>(
        sql`select expires_at::text from broadcast_leases where stream_id = ${own.stream_id}`,
      );
      await killed(a);
      publishers.push(publish(b, own.broadcast_key));
      await expect.poll(async () => (await lease(own.stream_id))?.instance_id, WAIT).not.toBe(heldByA!.instance_id);
      // Past the moment A's lease would have run out, and a sweep later: still live, still the same stream.
      await expect.poll(() => databaseIsPast(`${before!.expires_at}`), WAIT).toBe(true);
      const c = await startMedia(); // its start-up sweep has run
      expect(await lookup(own.stream_id)).toMatchObject({ live: 'Y', ended: false });
      const current = (await owner.post('/api/streams/get-live-stream', {})).body.stream as OwnStream;
      expect(current).toMatchObject({ stream_id: own.stream_id, hidden: false });

      // A deploy: B stops gracefully. The broadcast waits in grace, and the encoder continues it on C.
      await b.process.stop();
      expect(await lease(own.stream_id)).toMatchObject({ in_grace: true, expired: false });
      expect(await lookup(own.stream_id)).toMatchObject({ live: 'Y', ended: false });
      publishers.push(publish(c, own.broadcast_key));
      await expect.poll(async () => (await lease(own.stream_id))?.in_grace, WAIT).toBe(false);
      expect(await lookup(own.stream_id)).toMatchObject({ live: 'Y', ended: false });

      // C dies and the encoder does not come back: D, a stranger to this broadcast, ends it within 30 s.
      await startMedia();
      await killed(c);
      await expect.poll(async () => (await lookup(own.stream_id)).ended, { timeout: 30_000, interval: 250 }).toBe(true);
      expect(await lookup(own.stream_id)).toMatchObject({ live: 'N' });
      expect(await lease(own.stream_id)).toBeNull();
    } finally {
      await Promise.all(publishers.map((p) => p.stop()));
    }
  });
});

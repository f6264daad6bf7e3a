/**
 * A media node killed (kill -9) mid-broadcast with STORAGE=s3 (decision 0065): what it had copied is in
 * the bucket, playable from an API instance, with no segment named that the bucket lacks; restarted on
 * the same disk, the node copies what was left, closes the replay in the bucket and the stream ends —
 * nothing crashes. Media instances are processes of their own on one PostgreSQL database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlaylist } from '../../platform/media/hls-playlist';
import { readText } from '../../platform/storage/storage';
import { startSharedTestApps, type TestApp } from '../../testing/harness';
import { segmentPath } from '../../testing/hls';
import type { HttpSession } from '../../testing/http-session';
import { publishTestPattern } from '../../testing/rtmp-publisher';
import { startS3Server, type TestS3Server } from '../../testing/s3-server';
import { freePort, listening, startServerProcess, type ServerProcess } from '../../testing/server';

const WAIT = { timeout: 60_000, interval: 250 };

let s3: TestS3Server;
let api: TestApp;
let dataDir: string;
const running: ServerProcess[] = [];

/** The media node on the shared database and bucket, on `dataDir` (a restart continues on it). */
async function startMedia(): Promise<{ process: ServerProcess; rtmp: string }> {
  const config = api.resources.config.database;
  if (config.kind !== 'postgres') throw new Error('shared instances need PostgreSQL');
  const port = await freePort();
  const process = await startServerProcess({ ...s3.env, ROLE: 'media', DATABASE_URL: config.url, RTMP_PORT: String(port), RTMP_GRACE_MS: '2000', SEED_DEMO: 'off' }, { dataDir });
  running.push(process);
  await expect.poll(() => listening(port), WAIT).toBe(true);
  return { process, rtmp: `rtmp://127.0.0.1:${port}/live` };
}

const lookup = async (client: HttpSession, id: number) => (await client.get('/api/streams/stream-lookup', { id })).body.stream as { live: string; ended: boolean; playable: boolean };

async function storedBroadcast(streamId: number) {
  const keys = await s3.keys(`media/${streamId}/`);
  const playlistKey = keys.find((key) => key.endsWith('/index.m3u8'));
  if (!playlistKey) return null;
  const info = parsePlaylist((await readText(api.resources.files, playlistKey))!);
  const dir = path.posix.dirname(playlistKey);
  return { playlistKey, info, complete: info.segments.every((segment) => keys.includes(`${dir}/${segment}`)) };
}

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('a media node killed mid-broadcast with the files in a bucket', { timeout: 240_000 }, () => {
  beforeAll(async () => {
    s3 = await startS3Server();
    api = (await startSharedTestApps(1, { ...s3.env, ROLE: 'api' }))[0]!;
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-media-node-'));
  });
  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await api?.close();
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps what was copied playable, and a restarted node ends the broadcast with its whole replay in the bucket', async () => {
    const owner = await api.given.signedIn(await api.given.user());
    const own = (await owner.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number; broadcast_key: string };
    await owner.post('/api/streams/update-stream-info', { id: own.stream_id, data: { title: 'Killed node', audience: 'PUBLIC', rating: 'G' } });
    await owner.post('/api/streams/go-live', { id: own.stream_id });

    const first = await startMedia();
    const publisher = publishTestPattern({ url: `${first.rtmp}/${own.broadcast_key}`, width: 320, height: 180 });
    const viewer = api.client();
    let copied: NonNullable<Awaited<ReturnType<typeof storedBroadcast>>>;
    try {
      await expect.poll(async () => (await lookup(viewer, own.stream_id)).live, WAIT).toBe('Y');
      await expect.poll(async () => (await storedBroadcast(own.stream_id))?.info.segments.length ?? 0, WAIT).toBeGreaterThanOrEqual(3);
      first.process.child.kill('SIGKILL');
      await first.process.exited;
      copied = (await storedBroadcast(own.stream_id))!;
    } finally {
      await publisher.stop();
    }

    // What was copied: a playlist that names only segments the bucket has, served by the API instance.
    expect(copied).toMatchObject({ complete: true, info: { ended: false } });
    const localDir = path.join(dataDir, 'live', path.posix.dirname(copied.playlistKey));
    expect((await stat(localDir)).isDirectory()).toBe(true);
    const join = await viewer.post('/api/streams/stream-join', { stream_id: own.stream_id, isHls: true });
    const address = (join.body.url as { hls: string }).hls;
    const playlist = await viewer.request('GET', address);
    expect(playlist.status).toBe(200);
    const segment = segmentPath(address, playlist.body);
    expect(segment).toBeDefined();
    expect((await viewer.request('GET', segment!)).status).toBe(200);

    // Restarted on the same disk: once the dead node's lease runs out, the stream ends with its replay whole in the bucket.
    const again = await startMedia();
    await expect.poll(async () => (await lookup(viewer, own.stream_id)).ended, WAIT).toBe(true);
    expect(await lookup(viewer, own.stream_id)).toMatchObject({ live: 'N', playable: true });
    const replay = (await storedBroadcast(own.stream_id))!;
    expect(replay).toMatchObject({ complete: true, info: { ended: true } });
    expect(replay.info.segments.length).toBeGreaterThanOrEqual(copied.info.segments.length);
    expect(await stat(localDir).catch(() => null)).toBeNull();
    const closed = String((await viewer.request('GET', ((await viewer.post('/api/streams/stream-join', { stream_id: own.stream_id })).body.url as { hls: string }).hls)).body);
    expect(closed).toContain('#EXT-X-ENDLIST');

    // Nothing crashed: the restarted node still answers.
    expect(again.process.child.exitCode).toBeNull();
    expect((await fetch(`${again.process.url}/readyz`)).status).toBe(200);
  });
});

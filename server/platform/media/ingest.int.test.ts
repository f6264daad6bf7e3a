/** Real ffmpeg over real RTMP against the ingest, with in-test callbacks recording every call. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalFileStore } from '../storage/storage';
import { loneIngestLeases } from '../../testing/lone-ingest-leases';
import { publishTestPattern } from '../../testing/rtmp-publisher';
import { resolveFfmpegPath } from './ffmpeg-path';
import { runFfmpeg } from './ffmpeg-process';
import { parsePlaylist } from './hls-playlist';
import type { IngestCallbacks } from './ingest-callbacks';
import { createMediaServer, type MediaServer } from './media-server';

const GRACE_MS = 2500;
const WAIT = { timeout: 20_000, interval: 100 };
const streams = new Map([
  ['key-live', 1],
  ['key-refused', 2],
  ['key-grace', 3],
  ['key-moderated', 4],
  ['key-disk', 5],
]);
type Recorded = 'canPublish' | 'startBroadcast' | 'onLive' | 'onThumbnail' | 'onEnded';
type Calls = { [K in Recorded]: Parameters<IngestCallbacks[K]>[0][] };
const calls: Calls = { canPublish: [], startBroadcast: [], onLive: [], onThumbnail: [], onEnded: [] };
const callbacks: IngestCallbacks = {
  canPublish: (key) => (calls.canPublish.push(key), streams.has(key)),
  startBroadcast: async (key) => {
    calls.startBroadcast.push(key);
    if (key === 'key-refused') throw new Error('banned');
    return { streamId: streams.get(key)! };
  },
  onLive: async (e) => void calls.onLive.push(e),
  onThumbnail: async (e) => void calls.onThumbnail.push(e),
  onEnded: async (e) => void calls.onEnded.push(e),
  ...loneIngestLeases(),
};
const of = <T extends { streamId: number }>(list: T[], streamId: number) => list.filter((e) => e.streamId === streamId);

const root = mkdtempSync(path.join(os.tmpdir(), 'll-ingest-'));
const files = createLocalFileStore(root);
/** The local store's file of a key: the local store is the directory the ingest writes in. */
const localPath = (key: string) => path.join(root, key);
let media: MediaServer;
const url = (key: string) => `rtmp://127.0.0.1:${media.ingest.port}/live/${key}`;
const playlist = async (key: string) => parsePlaylist(await readFile(localPath(key), 'utf8'));

beforeAll(async () => {
  // A broadcast left open by a crash: boot cleanup must close and report it.
  await mkdir(localPath('media/99/old-1'), { recursive: true });
  await writeFile(localPath('media/99/old-1/index.m3u8'), '#EXTM3U\n#EXTINF:1.5,\nseg_00000.ts\n#EXTINF:2,\nseg_00001.ts\n');
  media = createMediaServer({
    config: { host: '127.0.0.1', rtmpPort: 0 },
    files,
    liveDir: root,
    callbacks,
    log: pino({ level: 'silent' }),
    secret: 'test-secret',
    graceMs: GRACE_MS,
    thumbnailEveryMs: 1000,
  });
  await media.start();
});

afterAll(async () => {
  await media?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('RTMP ingest', { timeout: 60_000 }, () => {
  it('closes playlists broken by a restart at boot', async () => {
    expect(of(calls.onEnded, 99)).toEqual([{ streamId: 99, broadcastId: 'old-1', playlistKey: 'media/99/old-1/index.m3u8', lengthSeconds: 3.5 }]);
    expect((await playlist('media/99/old-1/index.m3u8')).ended).toBe(true);
  });

  it('goes live on the first segment, grabs thumbnails, and closes the playlist as the replay', async () => {
    const publisher = publishTestPattern({ url: url('key-live'), seconds: 4, width: 640, height: 360 });
    await expect.poll(() => of(calls.onLive, 1).length, WAIT).toBe(1);
    const live = of(calls.onLive, 1)[0]!;
    expect(live).toMatchObject({ playlistKey: `media/1/${live.broadcastId}/index.m3u8`, width: 640, height: 360 });
    expect(live.playlistKey).not.toContain('key-live');
    expect((await playlist(live.playlistKey)).segments.length).toBeGreaterThan(0);

    await expect.poll(() => of(calls.onThumbnail, 1).length, WAIT).toBeGreaterThan(0);
    expect((await stat(localPath('media/1/thumb.jpg'))).size).toBeGreaterThan(1000);

    expect(await publisher.exited).toBe(0);
    await expect.poll(() => of(calls.onEnded, 1).length, WAIT).toBe(1);
    const ended = of(calls.onEnded, 1)[0]!;
    expect(ended).toMatchObject({ broadcastId: live.broadcastId, playlistKey: live.playlistKey });
    expect(ended.lengthSeconds).toBeGreaterThan(3);
    expect(ended.lengthSeconds).toBeLessThan(5);
    const replay = await playlist(live.playlistKey);
    expect(replay.ended).toBe(true);
    expect(replay.lengthSeconds).toBe(ended.lengthSeconds);
    // Latency (decision 0028): 1 s keyframes make 1 s segments, each playable on its own.
    const text = await readFile(localPath(live.playlistKey), 'utf8');
    expect(text).toContain('#EXT-X-TARGETDURATION:1\n');
    expect(text).toContain('#EXT-X-INDEPENDENT-SEGMENTS\n');
  });

  it('refuses an unknown key before anything starts', async () => {
    const publisher = publishTestPattern({ url: url('key-unknown'), seconds: 3, width: 320, height: 180 });
    expect(await publisher.exited).not.toBe(0);
    expect(calls.canPublish).toContain('key-unknown');
    expect(calls.startBroadcast).not.toContain('key-unknown');
  });

  it('refuses a publish that startBroadcast rejects', async () => {
    const publisher = publishTestPattern({ url: url('key-refused'), seconds: 3, width: 320, height: 180 });
    expect(await publisher.exited).not.toBe(0);
    expect(calls.startBroadcast).toContain('key-refused');
    expect(of(calls.onLive, 2)).toEqual([]);
    expect(of(calls.onEnded, 2)).toEqual([]);
  });

  it('continues the same broadcast and playlist when the encoder reconnects within the grace window', async () => {
    const first = publishTestPattern({ url: url('key-grace'), seconds: 3, width: 320, height: 180 });
    await expect.poll(() => of(calls.onLive, 3).length, WAIT).toBe(1);
    expect(await first.exited).toBe(0);
    await expect.poll(() => media.ingest.sessions().get(3)?.state, WAIT).toBe('grace');

    const second = publishTestPattern({ url: url('key-grace'), seconds: 3, width: 320, height: 180 });
    await expect.poll(() => media.ingest.sessions().get(3)?.state, WAIT).toBe('live');
    expect(await second.exited).toBe(0);
    await expect.poll(() => of(calls.onEnded, 3).length, WAIT).toBe(1);

    const [live] = of(calls.onLive, 3);
    const [ended] = of(calls.onEnded, 3);
    expect(of(calls.onLive, 3)).toHaveLength(1);
    expect(ended!.broadcastId).toBe(live!.broadcastId);
    expect(ended!.lengthSeconds).toBeGreaterThan(5);
    const text = await readFile(localPath(ended!.playlistKey), 'utf8');
    expect(text).toContain('#EXT-X-DISCONTINUITY');
    expect(text.match(/#EXT-X-ENDLIST/g)).toHaveLength(1);
  });

  it('ends a broadcast on demand, without waiting for the grace window', async () => {
    const publisher = publishTestPattern({ url: url('key-moderated'), width: 320, height: 180 });
    try {
      await expect.poll(() => of(calls.onLive, 4).length, WAIT).toBe(1);
      expect(await media.grabThumbnail(4)).toBe(true);
      // Only the remuxer may play over RTMP: a copied key gives no free stream.
      const viewer = runFfmpeg(resolveFfmpegPath(), ['-i', url('key-moderated'), '-t', '1', '-f', 'null', '-']);
      expect(await viewer.exited).not.toBe(0);
      await media.stopBroadcast(4);
      expect(of(calls.onEnded, 4)).toHaveLength(1);
      expect(await publisher.exited).not.toBe(0);
      expect(await media.grabThumbnail(4)).toBe(false);
    } finally {
      await publisher.stop();
    }
  });

  it('ends a broadcast whose disk fills up, with what was written as its replay', async (context) => {
    const folder = localPath('media/5');
    await mkdir(folder, { recursive: true });
    try {
      // A little over the room counted as full: live first, full within seconds at 720p.
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1200k', 'tmpfs', folder], { stdio: 'ignore' });
    } catch {
      context.skip();
    }
    const publisher = publishTestPattern({ url: url('key-disk'), width: 1280, height: 720 });
    try {
      await expect.poll(() => of(calls.onLive, 5).length, WAIT).toBe(1);
      await expect.poll(() => of(calls.onEnded, 5).length, WAIT).toBe(1);
      // Said why, so that the broadcaster is told (STREAM-STOPPED on their channel).
      expect(of(calls.onEnded, 5)[0]).toMatchObject({ reason: 'disk-full' });
      expect(await publisher.exited).not.toBe(0);
      expect(media.ingest.sessions().has(5)).toBe(false);
    } finally {
      await publisher.stop();
      execFileSync('umount', [folder]);
    }
  });
});

/**
 * The edge cache (decision 0066): Debian's nginx, configured by deploy/nginx/limelight.conf, in front of
 * two instances sharing PostgreSQL, Redis and the media files; a broadcast over RTMP; 500 guests, each
 * with their own token from stream-join, watching it through the edge. The instances see about one
 * request per segment, and the edge itself refuses a bad, expired, other stream's or other client's token
 * even for a segment it holds. Runs when PostgreSQL, Redis, ffmpeg and nginx with njs are here.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countOriginRequests, startEdge, watchElsewhere, type OriginCount, type RunningEdge, type Viewer } from '../../testing/edge';
import { startListeningSharedApps, type TestApp } from '../../testing/harness';
import { segmentPaths } from '../../testing/hls';
import { publishTestPattern } from '../../testing/rtmp-publisher';
import { suiteNeeding } from '../../testing/suite-needing';

const VIEWERS = 500;
const WATCH_SECONDS = 20;
const secret = randomBytes(32).toString('base64url');
const files = mkdtempSync(path.join(os.tmpdir(), 'll-edge-files-'));

suiteNeeding('postgres', 'redis', 'ffmpeg', 'nginx')('the edge cache in front of two instances', () => {
  let apps: Array<{ t: TestApp; baseUrl: string }> = [];
  let edge: RunningEdge;
  let origin: OriginCount;

  beforeAll(async () => {
    apps = await startListeningSharedApps(2, {
      REDIS_URL: process.env.TEST_REDIS_URL!,
      PLAYBACK_SECRET: secret,
      // Both instances read the media files the one ingesting writes (shared storage).
      DATA_DIR: files,
      TRUST_PROXY: 'on',
      STREAM_JOINS_PER_ADDRESS: '100000',
    });
    edge = await startEdge(apps.map(({ baseUrl }) => new URL(baseUrl).host), secret);
    origin = countOriginRequests(apps.map(({ t }) => t.app));
  }, 60_000);
  afterAll(async () => {
    origin?.stop();
    await edge?.stop();
    for (const { t } of apps.reverse()) await t.close();
    rmSync(files, { recursive: true, force: true });
  });

  /** A guest's browser joining through the edge: its cookie and its own signed playlist address. */
  async function guestJoins(streamId: number): Promise<Viewer> {
    const csrf = await fetch(`${edge.baseUrl}/api/csrf-token`);
    const cookie = (csrf.headers.getSetCookie().find((c) => c.startsWith('ll_csrf=')) ?? '').split(';')[0]!;
    const { token } = (await csrf.json()) as { token: string };
    const join = await fetch(`${edge.baseUrl}/api/streams/stream-join`, {
      method: 'POST',
      headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ stream_id: streamId }),
    });
    const body = (await join.json()) as { url?: { hls?: string } };
    if (join.status !== 200 || !body.url?.hls) throw new Error(`stream-join answered ${join.status} ${JSON.stringify(body)}`);
    return { playlist: body.url.hls, cookie };
  }

  it('serves 500 viewers of one live stream for about one origin request per segment, and refuses bad tokens at the edge', { timeout: 240_000 }, async () => {
    const [first] = apps;
    const t = first!.t;
    await t.app.services.media.start();
    const owner = await t.given.signedIn(await t.given.user());
    const own = (await owner.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number; broadcast_key: string };
    await owner.post('/api/streams/update-stream-info', { id: own.stream_id, data: { title: 'Edge test', audience: 'PUBLIC', rating: 'G' } });
    await owner.post('/api/streams/go-live', { id: own.stream_id });
    const publisher = publishTestPattern({ url: `rtmp://127.0.0.1:${t.app.services.media.ingest.port}/live/${own.broadcast_key}`, width: 320, height: 180, videoKbps: 200 });
    try {
      const live = async () => ((await owner.get('/api/streams/stream-lookup', { id: own.stream_id })).body.stream as { live: string }).live;
      await expect.poll(live, { timeout: 30_000, interval: 250 }).toBe('Y');
      const viewers: Viewer[] = [];
      for (let i = 0; i < VIEWERS; i += 25) viewers.push(...(await Promise.all(Array.from({ length: 25 }, () => guestJoins(own.stream_id)))));
      expect(new Set(viewers.map((v) => v.playlist)).size).toBe(VIEWERS);
      // The broadcast is on the air once its playlist lists segments.
      await expect.poll(async () => {
        const listed = await fetch(`${edge.baseUrl}${viewers[0]!.playlist}`, { headers: { cookie: viewers[0]!.cookie } });
        return listed.status === 200 ? segmentPaths(viewers[0]!.playlist, await listed.text()).length : 0;
      }, { timeout: 30_000, interval: 500 }).toBeGreaterThan(1);

      const before = { playlists: origin.playlists, segments: new Map(origin.segments) };
      const seen = await watchElsewhere(edge.baseUrl, viewers, { seconds: WATCH_SECONDS });
      const watched = [...seen.segments.keys()];
      const originSegmentRequests = watched.reduce((sum, name) => sum + origin.of(name) - (before.segments.get(name) ?? 0), 0);
      const perSegment = originSegmentRequests / watched.length;
      console.log(`edge: ${VIEWERS} viewers, ${watched.length} segments, ${seen.segmentFetches} segment and ${seen.playlistFetches} playlist fetches; ` +
        `origin: ${originSegmentRequests} segment requests (${perSegment.toFixed(2)} per segment), ${origin.playlists - before.playlists} playlist requests; playlist at the edge: ${JSON.stringify(Object.fromEntries(seen.playlistCache))}`);
      expect(edge.errors()).not.toMatch(/\[(error|crit|alert|emerg)\]/);
      expect(Object.fromEntries(seen.failures)).toEqual({});
      // Enough of a broadcast was watched, by most viewers, for the ratio to mean something.
      expect(watched.length).toBeGreaterThanOrEqual(8);
      expect(seen.segmentFetches / originSegmentRequests).toBeGreaterThanOrEqual(VIEWERS / 5);
      // About one origin request per segment (a few are asked twice: concurrent misses past the lock's wait).
      expect(perSegment).toBeLessThanOrEqual(1.5);
      // A playlist costs the origin a small fraction of the viewers' fetches (the edge keeps it a second).
      expect(origin.playlists - before.playlists).toBeLessThan(seen.playlistFetches / 20);

      // A cached segment, refused by the edge itself for any address but a valid one for this stream and client.
      const viewer = viewers[0]!;
      const token = viewer.playlist.split('/')[4]!;
      const name = watched[0]!;
      const cached = `/media/hls/${own.stream_id}/${token}/${name}`;
      const hit = await fetch(`${edge.baseUrl}${cached}`, { headers: { cookie: viewer.cookie } });
      expect(hit.status).toBe(200);
      expect(hit.headers.get('x-cache-status')).toBe('HIT');
      const [expiry, encodedViewer] = token.split('.');
      const tokens = t.app.services.media.tokens;
      const signedFor = Buffer.from(encodedViewer!, 'base64url').toString();
      const client = `browser:${viewer.cookie.slice('ll_csrf='.length)}`;
      const refused: Record<string, { token: string; cookie: string }> = {
        garbage: { token: 'garbage', cookie: viewer.cookie },
        forged: { token: `${expiry}.${encodedViewer}.${'A'.repeat(43)}`, cookie: viewer.cookie },
        'longer life written in': { token: token.replace(/^[0-9a-z]+/, (e) => (Number.parseInt(e, 36) + 3600).toString(36)), cookie: viewer.cookie },
        expired: { token: tokens.sign(own.stream_id, signedFor, -5, client), cookie: viewer.cookie },
        'another stream': { token: tokens.sign(own.stream_id + 1, signedFor, 60, client), cookie: viewer.cookie },
        'another browser': { token, cookie: viewers[1]!.cookie },
        'no cookie': { token, cookie: '' },
      };
      const asked = origin.of(name);
      for (const [why, attempt] of Object.entries(refused)) {
        const address = cached.replace(`/${token}/`, `/${attempt.token}/`);
        const playlist = viewer.playlist.replace(`/${token}/`, `/${attempt.token}/`);
        expect((await fetch(`${edge.baseUrl}${address}`, { headers: { cookie: attempt.cookie } })).status, why).toBe(403);
        expect((await fetch(`${edge.baseUrl}${playlist}`, { headers: { cookie: attempt.cookie } })).status, why).toBe(403);
      }
      // Refused at the edge: none of them reached an instance.
      expect(origin.of(name)).toBe(asked);
      // The same token still plays in its own browser, and the origin itself refuses what the edge refused.
      expect((await fetch(`${edge.baseUrl}${cached}`, { headers: { cookie: viewer.cookie } })).status).toBe(200);
      expect((await fetch(`${first!.baseUrl}${cached.replace(`/${token}/`, '/garbage/')}`, { headers: { cookie: viewer.cookie } })).status).toBe(403);
      expect((await fetch(`${first!.baseUrl}${cached}`, { headers: { cookie: viewers[1]!.cookie } })).status).toBe(403);
    } finally {
      await publisher.stop();
    }
  });
});

/**
 * The edge cache (decision 0066): what one live stream's viewers cost the origin, with and without
 * Debian's nginx in front (deploy/nginx/limelight.conf). Two server processes share PostgreSQL, Redis
 * and the media folder; the demo's broadcaster1 goes live with an RTMP test pattern; guests join (each
 * their own token) and poll the playlist and its new segments, in a process of their own. The origin's
 * requests come from its /metrics (limelight_http_requests_total by route). Goal: about one origin
 * request per segment through the edge (≤ 1.5), against one per viewer without it.
 * `EDGE_VIEWERS` (500), `EDGE_DIRECT_VIEWERS` (100), `EDGE_SECONDS` (20).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { startEdge, watchElsewhere, type Viewer, type ViewingResult } from '../server/testing/edge';
import { HttpSession } from '../server/testing/http-session';
import { publishTestPattern, rtmpPushUrl } from '../server/testing/rtmp-publisher';
import { startServerProcess, type ServerProcess } from '../server/testing/server';
import { emptyPostgresDatabase } from '../server/testing/tip-load';
import { round, writeResult } from './lib';

const VIEWERS = Number(process.env.EDGE_VIEWERS ?? 500);
const DIRECT_VIEWERS = Number(process.env.EDGE_DIRECT_VIEWERS ?? 100);
const SECONDS = Number(process.env.EDGE_SECONDS ?? 20);
const METRICS_TOKEN = randomBytes(16).toString('hex');
const GOAL = { originRequestsPerSegment: 1.5 };

const PLAYLIST_ROUTE = '/media/hls/:streamId/:token/index.m3u8';
const SEGMENT_ROUTE = '/media/hls/:streamId/:token/:segment';

/** The media requests every instance has answered so far (any status), by route. */
async function originCounts(servers: ServerProcess[]) {
  const count = { playlists: 0, segments: 0 };
  for (const server of servers) {
    const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    for (const line of text.split('\n')) {
      if (!line.startsWith('limelight_http_requests_total{')) continue;
      const value = Number(line.slice(line.lastIndexOf(' ') + 1));
      if (line.includes(`route="${PLAYLIST_ROUTE}"`)) count.playlists += value;
      if (line.includes(`route="${SEGMENT_ROUTE}"`)) count.segments += value;
    }
  }
  return count;
}

/** A guest's browser joining at `base`: its cookie and its own signed playlist address. */
async function guestJoins(base: string, streamId: number): Promise<Viewer> {
  const csrf = await fetch(`${base}/api/csrf-token`);
  const cookie = (csrf.headers.getSetCookie().find((c) => c.startsWith('ll_csrf=')) ?? '').split(';')[0]!;
  const { token } = (await csrf.json()) as { token: string };
  const join = await fetch(`${base}/api/streams/stream-join`, {
    method: 'POST',
    headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ stream_id: streamId }),
  });
  const body = (await join.json()) as { url?: { hls?: string } };
  if (!body.url?.hls) throw new Error(`stream-join answered ${join.status} ${JSON.stringify(body)}`);
  return { playlist: body.url.hls, cookie };
}

async function joinMany(base: string, streamId: number, count: number): Promise<Viewer[]> {
  const viewers: Viewer[] = [];
  while (viewers.length < count) viewers.push(...(await Promise.all(Array.from({ length: Math.min(25, count - viewers.length) }, () => guestJoins(base, streamId)))));
  return viewers;
}

/** Viewers watching at `base` (or each at one of `bases`), and what it cost the origin. */
async function run(label: string, servers: ServerProcess[], bases: string[], streamId: number, count: number) {
  const sizes = bases.map((_, i) => Math.floor(count / bases.length) + (i < count % bases.length ? 1 : 0));
  const viewers = await Promise.all(bases.map((base, i) => joinMany(base, streamId, sizes[i]!)));
  const before = await originCounts(servers);
  const results: ViewingResult[] = await Promise.all(bases.map((base, i) => watchElsewhere(base, viewers[i]!, { seconds: SECONDS })));
  const after = await originCounts(servers);
  const segments = new Set(results.flatMap((r) => [...r.segments.keys()]));
  const fetched = results.reduce((sum, r) => ({ playlists: sum.playlists + r.playlistFetches, segments: sum.segments + r.segmentFetches }), { playlists: 0, segments: 0 });
  const failures = results.reduce((sum, r) => sum + [...r.failures.values()].reduce((a, b) => a + b, 0), 0);
  const origin = { playlists: after.playlists - before.playlists, segments: after.segments - before.segments };
  const summary = {
    viewers: viewers.flat().length,
    seconds: SECONDS,
    distinctSegments: segments.size,
    viewerFetches: fetched,
    failures,
    originRequests: origin,
    originRequestsPerSegment: round(origin.segments / Math.max(1, segments.size), 2),
    viewersPerOriginSegmentRequest: round(fetched.segments / Math.max(1, origin.segments), 1),
    originPlaylistRequestsPerSecond: round(origin.playlists / SECONDS, 1),
    playlistAtTheEdge: results.flatMap((r) => [...r.playlistCache]).reduce<Record<string, number>>((sum, [status, n]) => ({ ...sum, [status]: (sum[status] ?? 0) + n }), {}),
  };
  console.log(`${label}: ${JSON.stringify(summary)}`);
  return summary;
}

async function main() {
  const database = await emptyPostgresDatabase('bench_edge');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-edge-bench-'));
  const secret = randomBytes(32).toString('base64url');
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL: process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    PLAYBACK_SECRET: secret,
    TRUST_PROXY: 'on',
    STREAM_JOINS_PER_ADDRESS: '100000',
    METRICS_TOKEN,
    LOG_LEVEL: 'warn',
  };
  const stops: Array<() => Promise<unknown>> = [async () => rmSync(dataDir, { recursive: true, force: true }), () => database.drop()];
  try {
    const first = await startServerProcess({ ...env, SEED_DEMO: 'on' }, { dataDir });
    stops.unshift(() => first.stop());
    const second = await startServerProcess({ ...env, SEED_DEMO: 'off' }, { dataDir });
    stops.unshift(() => second.stop());
    const edge = await startEdge([first, second].map((s) => new URL(s.url).host), secret);
    stops.unshift(() => edge.stop());

    const broadcaster = await HttpSession.at(first.url).signIn('broadcaster1', DEMO_PASSWORD);
    const { stream } = await broadcaster.api<{ stream: { stream_id: number; rtmp_url: string; broadcast_key: string } }>('/api/streams/get-live-stream', {});
    await broadcaster.api('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Edge bench', audience: 'PUBLIC', rating: 'G' } });
    await broadcaster.api('/api/streams/go-live', { id: stream.stream_id });
    const publisher = publishTestPattern({ url: rtmpPushUrl(stream.rtmp_url, stream.broadcast_key), width: 320, height: 180, videoKbps: 200 });
    stops.unshift(() => publisher.stop());
    for (;;) {
      const lookup = await broadcaster.get('/api/streams/stream-lookup', { id: stream.stream_id });
      if ((lookup.body.stream as { live?: string } | undefined)?.live === 'Y') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const direct = await run('without the edge', [first, second], [first.url, second.url], stream.stream_id, DIRECT_VIEWERS);
    const edged = await run('through the edge', [first, second], [edge.baseUrl], stream.stream_id, VIEWERS);
    const met = edged.originRequestsPerSegment <= GOAL.originRequestsPerSegment && edged.failures === 0;
    writeResult('edge-cache', {
      goal: GOAL,
      met,
      loadavg: round(os.loadavg()[0] ?? 0, 1),
      withoutTheEdge: direct,
      throughTheEdge: edged,
      nginxErrors: edge.errors().split('\n').filter((line) => /\[(error|crit|alert|emerg)\]/.test(line)).slice(0, 5),
    });
    if (!met) process.exitCode = 1;
  } finally {
    for (const stop of stops) await stop().catch(() => undefined);
  }
}

await main();

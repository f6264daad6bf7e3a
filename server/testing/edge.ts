/**
 * The edge cache for tests and the bench (decision 0066): Debian's nginx run in the foreground with
 * deploy/nginx/limelight.conf rendered into a temporary folder, in front of listening app instances;
 * simulated players fetching a live playlist and its new segments through it; a count of the media
 * requests that reached an instance.
 */
import { spawn } from 'node:child_process';
import { text } from 'node:stream/consumers';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { startEdgeNginx } from '../platform/media/edge-nginx';
import { segmentPaths } from './hls';
import { freePort } from './server';

export interface RunningEdge {
  baseUrl: string;
  /** nginx's complaints so far (its error log). */
  errors(): string;
  stop(): Promise<void>;
}

/** nginx in front of `upstreams` (host:port), checking tokens under `secret`; stop() ends it and removes its files. */
export async function startEdge(upstreams: string[], secret: string): Promise<RunningEdge> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'll-edge-'));
  const edge = await startEdgeNginx({ directory, port: await freePort(), upstreams, playbackSecret: secret });
  return {
    baseUrl: edge.url,
    errors: edge.errors,
    async stop() {
      await edge.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The media requests that reached the instances: per playlist and per segment name. */
export interface OriginCount {
  playlists: number;
  segments: Map<string, number>;
  /** Requests for `segment` so far. */
  of(segment: string): number;
  stop(): void;
}

const MEDIA = /^\/media\/hls\/\d+\/[^/]+\/([^/?]+)/;

/** Counts the HLS requests each listening app receives (on its HTTP server, before any routing). */
export function countOriginRequests(apps: FastifyInstance[]): OriginCount {
  const count: OriginCount = {
    playlists: 0,
    segments: new Map(),
    of: (segment) => count.segments.get(segment) ?? 0,
    stop: () => apps.forEach((app) => app.server.off('request', listener)),
  };
  const listener = (request: IncomingMessage) => {
    const file = MEDIA.exec(request.url ?? '')?.[1];
    if (!file) return;
    if (file === 'index.m3u8') count.playlists += 1;
    else count.segments.set(file, count.of(file) + 1);
  };
  for (const app of apps) app.server.on('request', listener);
  return count;
}

export interface Viewer {
  /** The signed playlist address. */
  playlist: string;
  cookie: string;
}

export interface ViewingResult {
  playlistFetches: number;
  segmentFetches: number;
  /** Every segment some viewer fetched, with how many fetched it. */
  segments: Map<string, number>;
  /** Answers other than 200, by status. */
  failures: Map<number, number>;
  /** The edge's X-Cache-Status of the playlist fetches (HIT, MISS, UPDATING…), by value. */
  playlistCache: Map<string, number>;
}

/**
 * Each viewer as a player: fetch the playlist, then the segments it lists that this viewer has not
 * fetched yet (from the live edge: at most the last `ahead`), every `pollMs`, for `seconds`.
 */
export async function watch(baseUrl: string, viewers: Viewer[], o: { seconds: number; pollMs?: number; ahead?: number }): Promise<ViewingResult> {
  const result: ViewingResult = { playlistFetches: 0, segmentFetches: 0, segments: new Map(), failures: new Map(), playlistCache: new Map() };
  const fail = (status: number) => result.failures.set(status, (result.failures.get(status) ?? 0) + 1);
  const until = Date.now() + o.seconds * 1000;
  const pollMs = o.pollMs ?? 1000;
  await Promise.all(viewers.map(async (viewer, index) => {
    const seen = new Set<string>();
    const headers = { cookie: viewer.cookie };
    // Players start at different moments.
    await new Promise((resolve) => setTimeout(resolve, (index * 37) % pollMs));
    while (Date.now() < until) {
      const started = Date.now();
      const listed = await fetch(`${baseUrl}${viewer.playlist}`, { headers }).catch(() => null);
      result.playlistFetches += 1;
      const cache = listed?.headers.get('x-cache-status') ?? 'none';
      result.playlistCache.set(cache, (result.playlistCache.get(cache) ?? 0) + 1);
      if (listed?.status !== 200) fail(listed?.status ?? 0);
      const segments = listed?.status === 200 ? segmentPaths(viewer.playlist, await listed.text()).slice(-(o.ahead ?? 2)) : [];
      for (const segment of segments.filter((s) => !seen.has(s))) {
        seen.add(segment);
        const response = await fetch(`${baseUrl}${segment}`, { headers }).catch(() => null);
        result.segmentFetches += 1;
        if (response?.status !== 200) fail(response?.status ?? 0);
        else {
          await response.arrayBuffer();
          const name = segment.slice(segment.lastIndexOf('/') + 1);
          result.segments.set(name, (result.segments.get(name) ?? 0) + 1);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, pollMs - (Date.now() - started))));
    }
  }));
  return result;
}

/** `watch` run in a child process (server/testing/edge-viewers.ts): the players' CPU is not the instances' event loop. */
export async function watchElsewhere(baseUrl: string, viewers: Viewer[], options: Parameters<typeof watch>[2]): Promise<ViewingResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'edge-viewers.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify({ baseUrl, viewers, options }));
  const [printed, code] = await Promise.all([text(child.stdout), new Promise<number | null>((resolve) => child.once('exit', resolve))]);
  if (code !== 0) throw new Error(`the simulated players exited with ${code}`);
  const parsed = JSON.parse(printed) as Omit<ViewingResult, 'segments' | 'failures' | 'playlistCache'> & Record<'segments' | 'failures' | 'playlistCache', Array<[never, number]>>;
  return { ...parsed, segments: new Map(parsed.segments), failures: new Map(parsed.failures), playlistCache: new Map(parsed.playlistCache) };
}

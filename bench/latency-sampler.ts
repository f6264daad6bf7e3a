/**
 * What the glass-to-glass benches read in the viewer's page: the stamp of every third decoded frame
 * against its display time (frame-stamp.ts), the playlists' live edge as they arrive, the player's
 * buffer, rate and stalls, and a process's CPU time. Used by live-latency.ts and browser-live.ts.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { allowNamedFunctions } from './browser-run';
import { readStamp, type StampLayout } from './frame-stamp';
import { percentile, round } from './lib';

const CLK_TCK = 100;

export interface Sample {
  /** Wall-clock ms at which the frame is shown. */
  at: number;
  /** Shown − stamped, ms; null when the stamp did not read. */
  latencyMs: number | null;
  currentTime: number;
  bufferAhead: number;
  rate: number;
  /** hls.js's own figures, where the page exposes its instance (the reference). */
  hlsLatency: number | null;
  hlsTarget: number | null;
}

/** Reads every third decoded frame's stamp into window.__samples; counts stalls in window.__stalls. */
export function installSampler(page: Page, layout: StampLayout): Promise<void> {
  return page.evaluate(
    ({ layout, reader }) => {
      const w = window as unknown as Record<string, unknown>;
      const read = new Function(`return (${reader})`)() as (data: Uint8ClampedArray, layout: unknown, now: number) => number | null;
      const video = document.querySelector('video')!;
      const canvas = document.createElement('canvas');
      canvas.width = layout.width;
      canvas.height = layout.height;
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      const rows = layout.top + layout.rows * layout.cell + 1;
      const samples: unknown[] = [];
      w.__samples = samples;
      w.__stalls = 0;
      video.addEventListener('waiting', () => (w.__stalls = (w.__stalls as number) + 1));
      let frames = 0;
      const onFrame = (now: number, meta: VideoFrameCallbackMetadata) => {
        if (frames++ % 3 === 0) {
          context.drawImage(video, 0, 0, layout.width, layout.height);
          const shown = performance.timeOrigin + (meta.expectedDisplayTime || now);
          const stamp = read(context.getImageData(0, 0, layout.width, rows).data, layout, shown);
          const buffered = video.buffered;
          const hls = w.hls as { latency: number; targetLatency: number | null } | undefined;
          samples.push({
            at: shown,
            latencyMs: stamp === null ? null : shown - stamp,
            currentTime: video.currentTime,
            bufferAhead: buffered.length ? buffered.end(buffered.length - 1) - video.currentTime : 0,
            rate: video.playbackRate,
            hlsLatency: hls ? hls.latency : null,
            hlsTarget: hls ? hls.targetLatency : null,
          });
        }
        video.requestVideoFrameCallback(onFrame);
      };
      video.requestVideoFrameCallback(onFrame);
    },
    { layout, reader: readStamp.toString() },
  );
}

/**
 * The live edge on hls.js's timeline (which starts at the first segment of the first playlist it
 * loaded) of every playlist the page received, with the time it arrived: a sliding window's segments
 * are kept by sequence number.
 */
export function trackPlaylists(page: Page): { at: number; edge: number; targetDuration: number }[] {
  const edges: { at: number; edge: number; targetDuration: number }[] = [];
  const durations = new Map<number, number>();
  page.on('response', (response) => {
    if (!new URL(response.url()).pathname.endsWith('.m3u8')) return;
    const at = Date.now();
    response
      .text()
      .then((text) => {
        let sequence = Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? 0);
        for (const match of text.matchAll(/#EXTINF:([\d.]+)/g)) durations.set(sequence++, Number(match[1]));
        const edge = [...durations.values()].reduce((sum, d) => sum + d, 0);
        edges.push({ at, edge, targetDuration: Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1] ?? 0) });
      })
      .catch(() => undefined);
  });
  return edges;
}

export async function playing(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5, undefined, { timeout: timeoutMs, polling: 200 });
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
const p95 = (values: number[]) => percentile([...values].sort((a, b) => a - b), 95);

/** The figures of one path from its samples and playlist arrivals. */
export function summarise(samples: Sample[], edges: { at: number; edge: number; targetDuration: number }[], stalls: number) {
  const latencies = samples.flatMap((s) => (s.latencyMs === null ? [] : [s.latencyMs])).sort((a, b) => a - b);
  // hls.js's estimate: the last playlist's edge plus the time since it arrived, minus the playhead.
  const estimates = samples.flatMap((s) => {
    const last = edges.filter((e) => e.at <= s.at).at(-1);
    return last ? [last.edge + (s.at - last.at) / 1000 - s.currentTime] : [];
  });
  const hlsLatency = samples.flatMap((s) => (s.hlsLatency === null ? [] : [s.hlsLatency]));
  const hlsTarget = samples.flatMap((s) => (s.hlsTarget === null ? [] : [s.hlsTarget]));
  return {
    frames: samples.length,
    stampsRead: latencies.length,
    glassToGlassMs: {
      median: round(median(latencies)),
      p95: round(p95(latencies)),
      min: round(latencies[0] ?? 0),
      max: round(latencies.at(-1) ?? 0),
    },
    player: {
      edgeMinusPlayheadS: round(median(estimates), 2),
      playlistTargetDurationS: edges.at(-1)?.targetDuration ?? null,
      ...(hlsLatency.length ? { hlsLatencyS: round(median(hlsLatency), 2), hlsTargetLatencyS: round(median(hlsTarget), 2) } : {}),
      bufferAheadS: { median: round(median(samples.map((s) => s.bufferAhead)), 2), min: round(Math.min(...samples.map((s) => s.bufferAhead)), 2) },
      playbackRate: { median: median(samples.map((s) => s.rate)), max: Math.max(...samples.map((s) => s.rate)) },
      stalls,
    },
  };
}

export async function collect(page: Page): Promise<{ samples: Sample[]; stalls: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { __samples: Sample[]; __stalls: number };
    return { samples: w.__samples.splice(0), stalls: w.__stalls };
  });
}

export async function reset(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __samples: unknown[]; __stalls: number };
    w.__samples.length = 0;
    w.__stalls = 0;
  });
}

export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return ((f[11] ?? 0) + (f[12] ?? 0) + (f[13] ?? 0) + (f[14] ?? 0)) / CLK_TCK;
}

/** A guest's page at `url` (on the server at `baseURL`), its playlists tracked from the first. */
export async function openWatchingPage(browser: Browser, baseURL: string, url: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL });
  await allowNamedFunctions(context);
  const page = await context.newPage();
  const edges = trackPlaylists(page);
  await page.goto(url);
  return { page, edges };
}

/**
 * Load-generator worker of bench/chat-fanout.ts: a separate process (never the server) that holds a
 * share of the anonymous subscribed sockets and counts what they receive. Driven over IPC:
 *   connect  → opens its sockets in batches, each subscribes to the channel and waits for `subscribed`
 *   window   → starts counting messages with seq ≥ from (latency histogram, per-seq receipt counts)
 *   progress → deliveries counted so far in the window
 *   collect  → the window's counts, histogram (sparse), duplicates, drops, this process's CPU and ELU
 *   close    → closes the sockets and exits
 * Chat texts are `b<seq>:<sendTimeMs>`; a frame is recognised with Buffer.indexOf on the raw bytes, and
 * each line of a `messages` frame counts as one delivery
 * (CHAT_PARSE=json parses every frame instead, to measure what parsing costs the client).
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';

export type WorkerCommand =
  | { cmd: 'connect'; urls: string[]; count: number; offset: number; channel: string; batch: number }
  | { cmd: 'window'; from: number; maxSeqs: number }
  | { cmd: 'progress'; to: number }
  | { cmd: 'collect'; to: number }
  | { cmd: 'close' };

export interface ConnectReply {
  connected: number;
  failed: number;
  errors: Record<string, number>;
  seconds: number;
}

export interface CollectReply {
  /** Receipts per seq in [from, to). */
  perSeq: number[];
  received: number;
  /** Frames that carried lines of the window (a `messages` frame carries several). */
  frames: number;
  /** Receipts of a seq already received on that socket; receipts beyond the window's size. */
  duplicates: number;
  outOfWindow: number;
  /** Histogram of publish → receipt latency: [bucket (0.1 ms), count] pairs. */
  histogram: [number, number][];
  maxMs: number;
  /** Wall-clock ms of the last counted receipt. */
  lastAt: number;
  openSockets: number;
  droppedSockets: number;
  cpuSeconds: number;
  eventLoopUtilization: number;
  seconds: number;
}

export const BUCKET_MS = 0.1;
const BUCKETS = 600_000; // 60 s

const parseJson = process.env.CHAT_PARSE === 'json';
/** Both `"op":"message"` and `"op":"messages"` start so. */
const OP_MESSAGE = Buffer.from('"op":"message');
/**
 * The end of `"text":"b`: Buffer.indexOf scans for a needle's first byte and, from 7 bytes on, builds
 * a Boyer–Moore table per call; `"` is every few bytes of JSON, `x` is not (at 100 lines/s the longer
 * needle took half of a worker's time and left it no idle time at all).
 */
const TEXT_MARK = Buffer.from('xt":"b');
const now = () => performance.timeOrigin + performance.now();

const sockets: WebSocket[] = [];
let socketCount = 0;
let dropped = 0;

let from = Number.MAX_SAFE_INTEGER;
let maxSeqs = 1;
/** One byte per (socket, seq in the window): a second receipt is a duplicate. */
let seen = new Uint8Array(0);
let counts = new Uint32Array(1);
let outOfWindow = 0;
let histogram = new Uint32Array(BUCKETS);
let received = 0;
let frames = 0;
let duplicates = 0;
let maxMs = 0;
let lastAt = 0;
let cpu0 = process.cpuUsage();
let elu0 = performance.eventLoopUtilization();
let t0 = performance.now();

/** Counts one receipt; true when it is a first receipt inside the window. */
function record(index: number, seq: number, sentAt: number, at: number): boolean {
  if (seq < from) return false;
  const k = seq - from;
  if (k >= maxSeqs) {
    outOfWindow += 1;
    return false;
  }
  if (seen[index * maxSeqs + k]) {
    duplicates += 1;
    return false;
  }
  seen[index * maxSeqs + k] = 1;
  counts[k]! += 1;
  received += 1;
  lastAt = at;
  const ms = at - sentAt;
  if (ms > maxMs) maxMs = ms;
  histogram[Math.max(0, Math.min(BUCKETS - 1, Math.floor(ms / BUCKET_MS)))]! += 1;
  return true;
}

/**
 * Reads each `<seq>:<ms>` (ASCII digits, optional fraction) straight from the frame bytes: one in a
 * `message` frame, one per line in a `messages` frame.
 */
function onFast(index: number, data: Buffer) {
  const at = now();
  const op = data.indexOf(OP_MESSAGE);
  if (op < 0 || op > 64) return;
  let counted = false;
  for (let mark = data.indexOf(TEXT_MARK, op); mark >= 0; mark = data.indexOf(TEXT_MARK, mark + TEXT_MARK.length)) {
    let i = mark + TEXT_MARK.length;
    let seq = 0;
    for (let c = data[i]!; c >= 48 && c <= 57; c = data[++i]!) seq = seq * 10 + (c - 48);
    if (data[i] !== 58) continue; // ':'
    let sentAt = 0;
    let scale = 0;
    for (let c = data[++i]!; (c >= 48 && c <= 57) || c === 46; c = data[++i]!) {
      if (c === 46) scale = 1;
      else if (scale) sentAt += (c - 48) / (scale *= 10);
      else sentAt = sentAt * 10 + (c - 48);
    }
    counted = record(index, seq, sentAt, at) || counted;
  }
  if (counted) frames += 1;
}

function onJson(index: number, data: Buffer) {
  const at = now();
  const frame = JSON.parse(data.toString()) as { op: string; message?: { text?: string }; messages?: Array<{ text?: string }> };
  const lines = frame.op === 'messages' ? frame.messages ?? [] : frame.op === 'message' && frame.message ? [frame.message] : [];
  let counted = false;
  for (const line of lines) {
    if (!line.text?.startsWith('b')) continue;
    const [seq, sentAt] = line.text.slice(1).split(':').map(Number);
    counted = record(index, seq!, sentAt!, at) || counted;
  }
  if (counted) frames += 1;
}

function openOne(url: string, channel: string, index: number): Promise<string | null> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let settled = false;
    const done = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(error);
    };
    const timer = setTimeout(() => {
      ws.terminate();
      done('timeout');
    }, 30_000);
    ws.on('error', (e: NodeJS.ErrnoException) => done(e.code ?? e.message));
    ws.on('open', () => ws.send(JSON.stringify({ op: 'subscribe', channel })));
    ws.on('message', (data: Buffer) => {
      if (settled) {
        if (parseJson) onJson(index, data);
        else onFast(index, data);
        return;
      }
      const frame = JSON.parse(data.toString()) as { op: string; code?: string };
      if (frame.op === 'subscribed') {
        sockets[index] = ws;
        ws.on('close', () => (dropped += 1));
        done(null);
      } else if (frame.op === 'error') {
        ws.close();
        done(frame.code ?? 'error');
      }
    });
  });
}

async function connect(c: Extract<WorkerCommand, { cmd: 'connect' }>): Promise<ConnectReply> {
  const started = performance.now();
  socketCount = c.count;
  const errors: Record<string, number> = {};
  let connected = 0;
  for (let i = 0; i < c.count; i += c.batch) {
    const batch = [];
    for (let k = i; k < Math.min(c.count, i + c.batch); k += 1) {
      // Sockets alternate between the instances, counted over all workers: an even split.
      batch.push(openOne(c.urls[(c.offset + k) % c.urls.length]!, c.channel, k));
    }
    for (const error of await Promise.all(batch)) {
      if (error === null) connected += 1;
      else errors[error] = (errors[error] ?? 0) + 1;
    }
  }
  return { connected, failed: c.count - connected, errors, seconds: (performance.now() - started) / 1000 };
}

function collect(to: number): CollectReply {
  const pairs: [number, number][] = [];
  for (let b = 0; b < BUCKETS; b += 1) if (histogram[b]) pairs.push([b, histogram[b]!]);
  const elu = performance.eventLoopUtilization(elu0);
  const cpu = process.cpuUsage(cpu0);
  return {
    perSeq: Array.from(counts.subarray(0, Math.max(0, Math.min(maxSeqs, to - from)))),
    received,
    frames,
    duplicates,
    outOfWindow,
    histogram: pairs,
    maxMs,
    lastAt,
    openSockets: sockets.filter((s) => s && s.readyState === WebSocket.OPEN).length,
    droppedSockets: dropped,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    eventLoopUtilization: elu.utilization,
    seconds: (performance.now() - t0) / 1000,
  };
}

// Only as the forked worker (the orchestrator imports this file for its types and constants).
if (process.send && process.argv[1]?.endsWith('chat-fanout-client.ts')) process.on('message', (command: WorkerCommand & { rid: number }) => {
  const reply = (body: unknown) => process.send!({ rid: command.rid, body });
  switch (command.cmd) {
    case 'connect':
      void connect(command).then(reply);
      break;
    case 'window':
      from = command.from;
      maxSeqs = command.maxSeqs;
      seen = new Uint8Array(socketCount * maxSeqs);
      counts = new Uint32Array(maxSeqs);
      outOfWindow = 0;
      histogram = new Uint32Array(BUCKETS);
      received = 0;
      frames = 0;
      duplicates = 0;
      maxMs = 0;
      lastAt = 0;
      cpu0 = process.cpuUsage();
      elu0 = performance.eventLoopUtilization();
      t0 = performance.now();
      reply({});
      break;
    case 'progress': {
      let n = 0;
      const end = Math.min(maxSeqs, command.to - from);
      for (let i = 0; i < end; i += 1) n += counts[i]!;
      reply({ received: n });
      break;
    }
    case 'collect':
      reply(collect(command.to));
      break;
    case 'close':
      for (const s of sockets) s?.terminate();
      reply({});
      setTimeout(() => process.exit(0), 50);
      break;
  }
});
if (process.send && process.argv[1]?.endsWith('chat-fanout-client.ts')) process.on('disconnect', () => process.exit(0));

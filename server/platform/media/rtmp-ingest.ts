/**
 * RTMP ingest on node-media-server 4.4.3: admits publishes (key check, then the streams module's
 * authoritative start), keeps one IngestSession per stream, and forwards session events to the callbacks.
 * node-media-server keeps its state in a module singleton: one ingest per process.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { once } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import NodeMediaServer, { type NmsSession } from 'node-media-server';
import nmsContext from 'node-media-server/src/core/context.js';
import nmsLogger from 'node-media-server/src/core/logger.js';
import type { FileStore } from '../storage/storage';
import { closeBrokenPlaylists } from './boot-cleanup';
import { claimPort } from './free-port';
import { BroadcastCopier, closeStoredPlaylist } from './live-copier';
import { LEASE_RENEW_MS, LEASE_SWEEP_MS, type IngestCallbacks } from './ingest-callbacks';
import { IngestMeter } from './ingest-meter';
import type { RenditionName } from './live-renditions';
import { IngestSession, type IngestHealth, type Publisher } from './ingest-session';

export interface RtmpIngestOptions {
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  files: FileStore;
  /** Where ffmpeg writes live HLS on this node (see IngestSession). */
  liveDir: string;
  callbacks: IngestCallbacks;
  log: FastifyBaseLogger;
  ffmpegPath: string;
  graceMs: number;
  thumbnailEveryMs: number;
  /** LIVE_RENDITIONS (decision 0070). */
  renditions?: readonly RenditionName[];
}

export interface RtmpIngest {
  start(): Promise<void>;
  /**
   * A graceful stop (deploy): stops ingesting and puts this instance's broadcasts in grace, so their
   * encoders may continue them on any instance; nothing is ended here.
   */
  stop(): Promise<void>;
  /** Stops ingesting without a word to the database, as a killed process would (fault drills, tests). */
  halt(): Promise<void>;
  /** The bound RTMP port (after start). */
  readonly port: number;
  /** Current ingest sessions by stream id (diagnostics, tests, metrics). */
  sessions(): ReadonlyMap<number, IngestSession>;
  /** Ends a stream's broadcast now (moderation, deletion): closes the encoder's connection too. */
  endBroadcast(streamId: number): Promise<void>;
  grabThumbnail(streamId: number): Promise<boolean>;
  /** The stream's ingest health on this instance; null when this instance does not ingest it. */
  health(streamId: number): IngestHealth | null;
  /** Where a relay on this instance publishes with this key (a browser's broadcast, decision 0082): a secret. */
  publishUrl(streamKey: string): string;
}

const APP = 'live';
const KEY_IN_PATH = /\/live\/[A-Za-z0-9_-]+/g;

/** Names a broadcast's folder: time-ordered, unique. */
export const newBroadcastId = () => `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
const loopback = (host: string) => (host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host);

/** node-media-server logs stream paths, and ours contain the stream key: mask them, route to our log. */
function quietNmsLogs(log: FastifyBaseLogger) {
  nmsLogger.log = (message: string, level = 'info') => {
    const text = String(message).replace(KEY_IN_PATH, '/live/***').replace(/name=[^,\s]+/g, 'name=***');
    if (level === 'error' || level === 'warn') log.warn({ nms: level }, text);
    else log.debug({ nms: level }, text);
  };
}

export function createRtmpIngest(o: RtmpIngestOptions): RtmpIngest {
  const log = o.log.child({ component: 'rtmp-ingest' });
  const byStream = new Map<number, IngestSession>();
  const byPath = new Map<string, IngestSession>();
  const admitting = new Set<string>();
  const accepted = new Set<string>();
  const hookCalls = new Set<Promise<void>>();
  /** Streams whose lease this instance holds (taken over at connect, or written when the stream went live). */
  const leased = new Set<number>();
  const timers: NodeJS.Timeout[] = [];
  let nms: NodeMediaServer | null = null;
  let port = 0;
  let stopping = false;

  const refuse = (session: NmsSession, reason: string) => {
    log.info({ session: session.id, reason }, 'rtmp connection refused');
    session.close();
  };

  const safeCanPublish = (key: string) => {
    try {
      return o.callbacks.canPublish(key);
    } catch (err) {
      log.error({ err }, 'canPublish failed');
      return false;
    }
  };

  // Synchronous (node-media-server does not wait): only the in-memory key check happens here.
  const onPrePublish = (session: NmsSession) => {
    if (stopping || session.streamApp !== APP || !session.socket) return refuse(session, 'not accepting');
    if (admitting.has(session.streamPath) || byPath.get(session.streamPath)?.hasPublisher) return refuse(session, 'already publishing');
    if (!safeCanPublish(session.streamName)) return refuse(session, 'unknown key or not allowed');
    accepted.add(session.id);
  };

  // Fires for refused sessions too: only the ones prePublish accepted go on.
  const onPostPublish = (session: NmsSession) => {
    if (accepted.delete(session.id)) void admit(session);
  };

  const onPrePlay = (session: NmsSession) => {
    const ingest = byPath.get(session.streamPath);
    const nonce = session.streamQuery.remux;
    if (ingest && typeof nonce === 'string' && nonce === ingest.remuxerNonce()) ingest.attachRemuxerSubscriber(session);
    else refuse(session, 'playback over RTMP is not offered');
  };

  /**
   * Every packet the publisher's RTMP parser produces passes the meter before node-media-server's
   * own handling. Set at postPublish, before the encoder's headers and first frames arrive.
   */
  function meterPackets(session: NmsSession): IngestMeter {
    const meter = new IngestMeter();
    const parser = session.rtmp;
    if (!parser) return meter;
    const deliver = parser.onPacketCallback;
    parser.onPacketCallback = (packet) => {
      meter.observe(packet);
      deliver(packet);
    };
    return meter;
  }

  async function admit(session: NmsSession) {
    const path = session.streamPath;
    let closed = false;
    const publisher: Publisher = { id: session.id, streamKey: session.streamName, meter: meterPackets(session), close: () => session.close() };
    session.socket?.once('close', () => {
      closed = true;
      void byPath.get(path)?.publisherLeft(publisher);
    });
    admitting.add(path);
    try {
      const { streamId, continues } = await o.callbacks.startBroadcast(session.streamName);
      if (continues) leased.add(streamId);
      if (closed || stopping) return;
      let ingest = byStream.get(streamId);
      if (ingest && ingest.state !== 'grace') return refuse(session, 'stream already live from another connection');
      ingest ??= openSession(streamId, continues);
      byPath.set(path, ingest);
      await ingest.attach(publisher);
    } catch (err) {
      // Said without the key (the error names no key); the owner's dashboard is told why by the hook.
      log.warn({ err: err instanceof Error ? err.message : String(err), session: session.id }, 'publish refused by startBroadcast');
      session.close();
    } finally {
      admitting.delete(path);
    }
  }

  const localBase = () => `rtmp://${loopback(o.host)}:${port}`;

  function openSession(streamId: number, continues?: string): IngestSession {
    const ingest = new IngestSession({
      streamId,
      broadcastId: continues ?? newBroadcastId(),
      files: o.files,
      liveDir: o.liveDir,
      ffmpegPath: o.ffmpegPath,
      rtmpBase: localBase(),
      graceMs: o.graceMs,
      thumbnailEveryMs: o.thumbnailEveryMs,
      ...(o.renditions ? { renditions: o.renditions } : {}),
      log: o.log,
    });
    byStream.set(streamId, ingest);
    // Hooks of one session run in order (live before its thumbnails, ended last).
    let chain = Promise.resolve();
    const call = (name: string, run: () => Promise<void>) => {
      chain = chain.then(run).catch((err: unknown) => log.error({ err, streamId, hook: name }, 'ingest hook failed'));
      const tracked = chain;
      hookCalls.add(tracked);
      void tracked.then(() => hookCalls.delete(tracked));
    };
    ingest.on('live', (event) => call('onLive', async () => {
      await o.callbacks.onLive(event);
      leased.add(streamId);
    }));
    ingest.on('thumbnail', (event) => call('onThumbnail', () => o.callbacks.onThumbnail(event)));
    const forget = () => {
      if (byStream.get(streamId) === ingest) byStream.delete(streamId);
      for (const [path, s] of byPath) if (s === ingest) byPath.delete(path);
    };
    ingest.on('ended', (event) => {
      forget();
      if (ingest.hasGoneLive || leased.has(streamId)) call('onEnded', () => o.callbacks.onEnded(event));
      leased.delete(streamId);
    });
    ingest.on('left', forget);
    return ingest;
  }

  /** Keeps this instance's leases; a broadcast whose encoder went to another instance is left to it. */
  async function renewLeases() {
    const held = await o.callbacks.renewLeases([...leased]);
    for (const streamId of leased) {
      if (held.has(streamId)) continue;
      leased.delete(streamId);
      await byStream.get(streamId)?.leave();
    }
  }

  /** A broadcast whose lease ran out: closed here (and copied whole) when this node wrote it, else closed in the store. */
  const closeExpiredPlaylist = async (playlistKey: string) => {
    const copier = new BroadcastCopier(o.files, o.liveDir, path.posix.dirname(playlistKey));
    if (!(await copier.read())) return closeStoredPlaylist(o.files, playlistKey).catch(() => null);
    const info = await copier.close().catch((err: unknown) => log.error({ err }, 'could not copy a replay to storage'));
    if (info) await copier.discard();
    return info?.lengthSeconds ?? null;
  };

  async function endExpiredBroadcasts() {
    const ended = await o.callbacks.endExpiredBroadcasts(closeExpiredPlaylist);
    if (ended) log.info({ ended }, 'ended broadcasts whose instance stopped renewing their lease');
  }

  function every(ms: number, name: string, run: () => Promise<void>) {
    timers.push(setInterval(() => void run().catch((err: unknown) => log.error({ err }, `${name} failed`)), ms));
  }

  async function closeListener() {
    for (const timer of timers.splice(0)) clearInterval(timer);
    if (!nms) return;
    nmsContext.eventEmitter.off('prePublish', onPrePublish);
    nmsContext.eventEmitter.off('postPublish', onPostPublish);
    nmsContext.eventEmitter.off('prePlay', onPrePlay);
    const server = nms.rtmpServer.tcpServer;
    await nms.stop();
    if (server?.listening) await once(server, 'close');
    nms = null;
  }

  return {
    get port() {
      return port;
    },
    sessions: () => byStream,
    endBroadcast: async (streamId) => byStream.get(streamId)?.end(),
    grabThumbnail: async (streamId) => (await byStream.get(streamId)?.grabThumbnail()) ?? false,
    health: (streamId) => byStream.get(streamId)?.health() ?? null,
    publishUrl: (streamKey) => `${localBase()}/${APP}/${streamKey}`,
    async start() {
      await endExpiredBroadcasts();
      const closed = await closeBrokenPlaylists(o.files, o.liveDir, o.callbacks);
      if (closed) log.info({ closed }, 'closed playlists of broadcasts broken by a restart');
      port = await claimPort(o.host, o.port);
      quietNmsLogs(log);
      nms = new NodeMediaServer({ bind: o.host, rtmp: { port } });
      nms.on('prePublish', onPrePublish);
      nms.on('postPublish', onPostPublish);
      nms.on('prePlay', onPrePlay);
      nms.rtmpServer.run();
      const server = nms.rtmpServer.tcpServer;
      if (server && !server.listening) await once(server, 'listening');
      every(LEASE_RENEW_MS, 'lease renewal', renewLeases);
      every(LEASE_SWEEP_MS, 'expired broadcasts sweep', endExpiredBroadcasts);
      log.info({ port }, 'RTMP ingest listening');
    },
    async stop() {
      stopping = true;
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.all(hookCalls);
      const held = [...leased];
      leased.clear();
      await o.callbacks.releaseLeases(held, o.graceMs).catch((err: unknown) => log.error({ err }, 'could not put broadcasts in grace'));
      // Broadcasts that never went live have nothing to continue: they end as before.
      await Promise.all([...byStream.values()].map((s) => (held.includes(s.streamId) ? s.leave() : s.end())));
      await Promise.all(hookCalls);
      await closeListener();
    },
    async halt() {
      stopping = true;
      for (const timer of timers.splice(0)) clearInterval(timer);
      leased.clear();
      await Promise.all([...byStream.values()].map((s) => s.leave()));
      await closeListener();
    },
  };
}

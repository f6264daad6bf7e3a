/** The media layer's entry point: RTMP ingest, HLS playback routes and playback tokens. */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { FileStore } from '../storage/storage';
import { resolveFfmpegPath } from './ffmpeg-path';
import type { Period } from './hls-playlist';
import { registerHlsRoutes, type PlaybackVerifier } from './hls-routes';
import type { IngestCallbacks, PlaylistLocator } from './ingest-callbacks';
import { createPlaybackTokens } from './playback-tokens';
import type { RenditionName } from './live-renditions';
import { createRtmpIngest } from './rtmp-ingest';

export interface MediaServerOptions {
  config: { host: string; rtmpPort: number };
  files: FileStore;
  /** Where ffmpeg writes live HLS on this node: the local store's own directory, or one whose segments are copied to the store. */
  liveDir: string;
  callbacks: IngestCallbacks;
  log: FastifyBaseLogger;
  /** `await loadSecret(db, 'playback')` */
  secret: string;
  ffmpegPath?: string;
  /** How long a dropped encoder may take to come back and continue the same broadcast. */
  graceMs?: number;
  thumbnailEveryMs?: number;
  /** LIVE_RENDITIONS (decision 0070); empty or absent: each stream copied as one rendition. */
  renditions?: readonly RenditionName[];
}

export function createMediaServer(o: MediaServerOptions) {
  const tokens = createPlaybackTokens(o.secret);
  const ffmpegPath = o.ffmpegPath ?? resolveFfmpegPath();
  const ingest = createRtmpIngest({
    host: o.config.host,
    port: o.config.rtmpPort,
    files: o.files,
    liveDir: o.liveDir,
    callbacks: o.callbacks,
    log: o.log,
    ffmpegPath,
    graceMs: o.graceMs ?? 15_000,
    thumbnailEveryMs: o.thumbnailEveryMs ?? 10_000,
    ...(o.renditions ? { renditions: o.renditions } : {}),
  });
  return {
    ingest,
    tokens,
    /** The ffmpeg the ingest runs, for other media work (demo replays). */
    ffmpegPath,
    start: () => ingest.start(),
    stop: () => ingest.stop(),
    /** End a broadcast now (moderation, deletion); the encoder is disconnected. */
    stopBroadcast: (streamId: number) => ingest.endBroadcast(streamId),
    grabThumbnail: (streamId: number) => ingest.grabThumbnail(streamId),
    /** The stream's ingest health if this instance ingests it. */
    ingestHealth: (streamId: number) => ingest.health(streamId),
    /** The signed playlist URL stream-join answers (`url.hls`), for this viewer on this client only; the token is a folder (decision 0066). */
    playbackUrl: (streamId: number, viewer: string, client: string, ttlSeconds: number) =>
      `/media/hls/${streamId}/${tokens.sign(streamId, viewer, ttlSeconds, client)}/index.m3u8`,
    /** `verify` defaults to the token check; the streams module passes its gate (viewer and watch rules). */
    registerRoutes(
      app: FastifyInstance,
      locate: { playlist: PlaylistLocator; thumbnail: PlaylistLocator },
      verify: PlaybackVerifier = (token, id) => tokens.verify(token, id) !== null,
      keptOut?: (streamId: number) => Promise<readonly Period[]>,
    ) {
      registerHlsRoutes(app, { files: o.files, locator: locate.playlist, thumbnailKey: locate.thumbnail, verify, seal: tokens.seal, ...(keptOut ? { keptOut } : {}) });
    },
  };
}

export type MediaServer = ReturnType<typeof createMediaServer>;

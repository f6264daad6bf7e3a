/**
 * One ingest session per stream: the publishes of one broadcast and the playlist they feed.
 *
 *   starting ──first segment──▶ live ──encoder dropped──▶ grace ──reconnect──▶ live
 *      │                         │                          │
 *      └───────(drop)──▶ grace   └──────end()───▶ ending ◀──┘ (grace expired)  ──▶ ended
 *
 * A reconnect within the grace window continues the same broadcast and appends to the same
 * playlist; the playlist is closed (#EXT-X-ENDLIST) only when the session ends.
 *
 * ffmpeg writes on this node's disk (`liveDir`); each closed segment, then the playlist, is copied to the
 * store as it appears (BroadcastCopier), and the replay is whole in the store before `ended` is told.
 */
import { EventEmitter } from 'node:events';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { FileStore } from '../storage/storage';
import { diskIsFull } from '../uploads/disk-full';
import { PLAYLIST_NAME, readPlaylist } from './hls-playlist';
import { liveMasterPlaylist, liveVariants, type LiveVariant, type RenditionName } from './live-renditions';
import type { IngestMeter, IngestReading } from './ingest-meter';
import { BroadcastCopier } from './live-copier';
import { startRemuxer, type Remuxer } from './remuxer';
import { grabThumbnail } from './thumbnails';

export type IngestState = 'starting' | 'live' | 'grace' | 'ending' | 'ended';

/** A publishing RTMP connection, as the session sees it. */
export interface Publisher {
  readonly id: string;
  readonly streamKey: string;
  /** Measures what this connection sends (ingest health). */
  readonly meter: IngestMeter;
  close(): void;
}

/** The ingest's health as the dashboard reads it: the session's state and, while an encoder publishes, its figures. */
export interface IngestHealth {
  state: IngestState;
  reading: IngestReading | null;
}

export interface IngestEvents {
  state: [IngestState];
  live: [{ streamId: number; broadcastId: string; playlistKey: string; width: number | null; height: number | null }];
  thumbnail: [{ streamId: number; thumbnailKey: string }];
  /** `reason`: the platform ended it (a full disk), not the encoder or its owner. */
  ended: [{ streamId: number; broadcastId: string; playlistKey: string; lengthSeconds: number; reason?: 'disk-full' }];
  /** Stopped here without ending the broadcast: it goes on elsewhere (or after this instance's restart). */
  left: [];
  /** The disk filled up: the broadcast ends with what was written (its replay). */
  'disk-full': [];
}

export interface IngestSessionOptions {
  streamId: number;
  broadcastId: string;
  files: FileStore;
  /** Where ffmpeg writes live HLS on this node (the local store's own directory, or a directory beside it). */
  liveDir: string;
  ffmpegPath: string;
  rtmpBase: string;
  graceMs: number;
  thumbnailEveryMs: number;
  /** LIVE_RENDITIONS (decision 0070); empty: the stream copied as one rendition. */
  renditions?: readonly RenditionName[];
  log: FastifyBaseLogger;
}

const SEGMENT_POLL_MS = 150;
/** How long the renditions wait for the encoder's picture size (its first packets) before the stream is only copied. */
const SOURCE_SIZE_WAIT_MS = 5_000;
/** ffmpeg's HLS muxer goes on without a word when its writes fail: the disk is looked at this often instead. */
const DISK_CHECK_MS = 2_000;

export const broadcastDirKey = (streamId: number, broadcastId: string) => `media/${streamId}/${broadcastId}`;
export const thumbnailKeyOf = (streamId: number) => `media/${streamId}/thumb.jpg`;

export class IngestSession extends EventEmitter<IngestEvents> {
  state: IngestState = 'starting';
  readonly playlistKey: string;
  private publisher: Publisher | null = null;
  private remuxer: Remuxer | null = null;
  private timers = new Set<NodeJS.Timeout>();
  private ending: Promise<void> | null = null;
  private grabbing: Promise<boolean> | null = null;
  private wentLive = false;
  /** Set when the platform ends the broadcast itself (a full disk): told with `ended`. */
  private endReason: 'disk-full' | null = null;
  private remuxerStopped: Promise<void> = Promise.resolve();
  /** The renditions ffmpeg writes (decision 0070); null: one copied playlist. */
  private variants: LiveVariant[] | null = null;
  private readonly log: FastifyBaseLogger;
  private readonly copier: BroadcastCopier;

  constructor(private readonly o: IngestSessionOptions) {
    super();
    this.playlistKey = `${broadcastDirKey(o.streamId, o.broadcastId)}/${PLAYLIST_NAME}`;
    this.copier = new BroadcastCopier(o.files, o.liveDir, broadcastDirKey(o.streamId, o.broadcastId));
    this.log = o.log.child({ streamId: o.streamId, broadcastId: o.broadcastId });
  }

  get streamId() {
    return this.o.streamId;
  }

  get broadcastId() {
    return this.o.broadcastId;
  }

  /** Only a broadcast that went live is reported as ended. */
  get hasGoneLive() {
    return this.wentLive;
  }

  get hasPublisher() {
    return this.publisher !== null;
  }

  /** Measured from the publishing encoder; no figures while it is away (grace) or after the end. */
  health(): IngestHealth {
    const reading = this.publisher?.meter.reading() ?? null;
    // An encoder sending HEVC or AV1 has no H.264 header to read: ffmpeg's probe of the same stream gives the size.
    const probed = this.remuxer?.videoSize() ?? null;
    return {
      state: this.state,
      reading: reading && { ...reading, width: reading.width ?? probed?.width ?? null, height: reading.height ?? probed?.height ?? null },
    };
  }

  /** The remuxer's own play connection carries this nonce; any other play is refused. */
  remuxerNonce(): string | null {
    return this.remuxer?.nonce ?? null;
  }

  attachRemuxerSubscriber(subscriber: { close(): void }): void {
    this.remuxer?.attachSubscriber(subscriber);
  }

  /** A publish (the first, or a reconnect within the grace window) feeds this session. */
  async attach(publisher: Publisher): Promise<void> {
    if (this.state !== 'starting' && this.state !== 'grace') throw new Error(`cannot attach a publisher while ${this.state}`);
    this.clearTimers();
    const resumed = this.state === 'grace';
    this.publisher = publisher;
    await this.remuxerStopped;
    if (this.publisher !== publisher) return; // ended, or the encoder left again, meanwhile
    const existing = await this.copier.prepare();
    if (this.publisher !== publisher) return;
    const append = (existing.info?.segments.length ?? 0) > 0;
    this.variants = await this.chooseVariants(publisher, existing.variants, append);
    if (this.publisher !== publisher) return;
    if (this.variants) {
      this.copier.useVariants(this.variants.map((v) => v.name));
      await Promise.all(this.variants.map((v) => mkdir(path.join(this.copier.dir, v.name), { recursive: true })));
    }
    const remuxer = startRemuxer({
      ffmpegPath: this.o.ffmpegPath,
      rtmpBase: this.o.rtmpBase,
      streamKey: publisher.streamKey,
      dir: this.copier.dir,
      append,
      ...(this.variants ? { variants: this.variants } : {}),
    });
    this.remuxer = remuxer;
    void remuxer.exited.then((code) => this.onRemuxerExit(remuxer, publisher, code));
    this.log.info({ resumed }, 'ingest publishing');
    if (this.wentLive) this.whileLive();
    else {
      this.setState('starting');
      this.every(SEGMENT_POLL_MS, () => this.checkFirstSegment());
      this.watchDisk();
    }
  }

  /**
   * The renditions of this publish: those the broadcast began with when it continues, else the ladder
   * for the encoder's picture (told in its first packets); none when renditions are off, when the
   * broadcast began as one copied playlist, or when the picture's size is not known (another codec).
   */
  private async chooseVariants(publisher: Publisher, began: readonly string[] | null, append: boolean): Promise<LiveVariant[] | null> {
    const names = this.o.renditions ?? [];
    if (names.length === 0 && !began) return null;
    if (append && !began) return null;
    const deadline = Date.now() + SOURCE_SIZE_WAIT_MS;
    let reading = publisher.meter.reading();
    while ((reading.width === null || reading.height === null) && Date.now() < deadline && this.publisher === publisher) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reading = publisher.meter.reading();
    }
    if (reading.width === null || reading.height === null) {
      if (began) throw new Error('the encoder sent no picture size: the broadcast\'s renditions cannot go on');
      this.log.warn({ videoCodec: reading.videoCodec }, 'no H.264 picture size from the encoder: the stream is copied without renditions');
      return null;
    }
    return liveVariants(names, { width: reading.width, height: reading.height }, began ?? undefined);
  }

  /** Writes the master playlist over the variants once each has its first segment (not again when a broadcast continues). */
  private async writeMaster(): Promise<void> {
    if (!this.variants || (await readFile(this.copier.playlistFile).catch(() => null)) !== null) return;
    const meter = this.publisher?.meter;
    const reading = meter?.reading();
    const version = Math.max(3, ...(await Promise.all(this.variants.map(async (v) => {
      const text = await readFile(path.join(this.copier.dir, v.name, PLAYLIST_NAME), 'utf8').catch(() => '');
      return Number(/^#EXT-X-VERSION:(\d+)/m.exec(text)?.[1] ?? 3);
    }))));
    const master = liveMasterPlaylist(this.variants, {
      bitrateKbps: reading?.bitrateKbps ?? null,
      videoCodec: meter?.videoCodecName() ?? null,
      aac: reading?.audioCodec === 'AAC',
      hasAudio: (reading?.audioCodec ?? null) !== null,
    }, version);
    await writeFile(`${this.copier.playlistFile}.tmp`, master);
    await rename(`${this.copier.playlistFile}.tmp`, this.copier.playlistFile);
  }

  private watchDisk() {
    this.every(DISK_CHECK_MS, async () => {
      if (this.state === 'ending' || this.state === 'ended' || !(await diskIsFull(this.copier.dir))) return;
      this.log.error('disk full: the broadcast ends with what was written');
      this.endReason = 'disk-full';
      this.emit('disk-full');
      await this.end();
    });
  }

  /** The encoder's connection closed: keep the broadcast for the grace window. */
  async publisherLeft(publisher: Publisher): Promise<void> {
    if (this.publisher !== publisher) return;
    this.publisher = null;
    if (this.state !== 'ending' && this.state !== 'ended') {
      // Grace starts now, not after ffmpeg flushed: a quick reconnect must find the session waiting.
      this.clearTimers();
      this.setState('grace');
      this.log.info({ graceMs: this.o.graceMs }, 'encoder dropped, waiting for a reconnect');
      this.timers.add(setTimeout(() => void this.end(), this.o.graceMs));
    }
    await this.stopRemuxer();
  }

  /** Ends the broadcast: the remuxer finishes, the playlist is closed and becomes the replay. */
  end(): Promise<void> {
    this.ending ??= this.finish(true);
    return this.ending;
  }

  /** Stops ingesting here and leaves the playlist open: the broadcast continues where its lease goes. */
  leave(): Promise<void> {
    this.ending ??= this.finish(false);
    return this.ending;
  }

  private async finish(closeReplay: boolean): Promise<void> {
    this.clearTimers();
    this.setState('ending');
    const publisher = this.publisher;
    this.publisher = null;
    await this.stopRemuxer();
    publisher?.close();
    if (!closeReplay) {
      // What was written here goes to the store, where the instance continuing the broadcast finds it.
      await this.copier.sync().then(() => this.copier.discard(), (err: unknown) => this.log.error({ err }, 'could not copy the broadcast to storage'));
      this.setState('ended');
      this.log.info('stopped ingesting; the broadcast continues');
      this.emit('left');
      return;
    }
    // Closed and copied whole; the node's own copy stays when that failed (boot cleanup tries again).
    const info = await this.copier.close().catch((err: unknown) => {
      this.log.error({ err }, 'could not close the playlist or copy the replay to storage');
      return null;
    });
    if (info) await this.copier.discard();
    const lengthSeconds = info?.lengthSeconds ?? 0;
    this.setState('ended');
    this.log.info({ lengthSeconds }, 'broadcast ended');
    this.emit('ended', { streamId: this.streamId, broadcastId: this.broadcastId, playlistKey: this.playlistKey, lengthSeconds, ...(this.endReason ? { reason: this.endReason } : {}) });
  }

  /** Stops the running remuxer; callers that write the playlist next wait for any stop in progress. */
  private stopRemuxer(): Promise<void> {
    const remuxer = this.remuxer;
    this.remuxer = null;
    if (remuxer) this.remuxerStopped = Promise.all([this.remuxerStopped, remuxer.stop()]).then(() => {});
    return this.remuxerStopped;
  }

  /** ffmpeg quit on its own (bad input, crash): drop the publisher so the encoder reconnects. */
  private onRemuxerExit(remuxer: Remuxer, publisher: Publisher, code: number | null) {
    if (this.remuxer !== remuxer) return;
    this.log.warn({ code, ffmpeg: remuxer.tail() }, 'remuxer exited unexpectedly');
    this.remuxer = null;
    publisher.close();
  }

  private async checkFirstSegment() {
    if (this.state !== 'starting') return;
    // The first segment is in the store before anyone is told the stream is live.
    const info = await this.copier.sync();
    if (!info?.everyVariantStarted || this.state !== 'starting') return;
    if (this.variants) {
      // Its master playlist follows the variants' into the store.
      await this.writeMaster();
      await this.copier.sync();
      if (this.state !== 'starting') return;
    }
    this.clearTimers();
    this.wentLive = true;
    const size = this.remuxer?.videoSize() ?? null;
    this.whileLive();
    this.emit('live', {
      streamId: this.streamId,
      broadcastId: this.broadcastId,
      playlistKey: this.playlistKey,
      width: size?.width ?? null,
      height: size?.height ?? null,
    });
  }

  private whileLive() {
    this.setState('live');
    this.watchDisk();
    if (!this.copier.inPlace) this.every(SEGMENT_POLL_MS, async () => void (await this.copier.sync()));
    void this.grabThumbnail();
    this.every(this.o.thumbnailEveryMs, async () => void (await this.grabThumbnail()));
  }

  /** A fresh thumbnail from the newest segment; false when not live or ffmpeg failed. */
  grabThumbnail(): Promise<boolean> {
    if (this.state !== 'live') return Promise.resolve(false);
    this.grabbing ??= this.grab().finally(() => {
      this.grabbing = null;
    });
    return this.grabbing;
  }

  private async grab(): Promise<boolean> {
    try {
      const main = this.copier.mainPlaylistFile;
      const last = (await readPlaylist(main))?.segments.at(-1);
      if (!last) return false;
      const thumbnailKey = thumbnailKeyOf(this.streamId);
      const picture = path.join(this.o.liveDir, thumbnailKey);
      await mkdir(path.dirname(picture), { recursive: true });
      const ok = await grabThumbnail(this.o.ffmpegPath, path.join(path.dirname(main), last), picture);
      if (!ok) return false;
      await this.o.files.putFile(thumbnailKey, picture, { move: true });
      this.emit('thumbnail', { streamId: this.streamId, thumbnailKey });
      return true;
    } catch (err) {
      this.log.warn({ err }, 'thumbnail failed');
      return false;
    }
  }

  private every(ms: number, run: () => Promise<void>) {
    const timer = setInterval(() => void run().catch((err: unknown) => this.log.warn({ err }, 'ingest timer failed')), ms);
    this.timers.add(timer);
  }

  private clearTimers() {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private setState(state: IngestState) {
    this.state = state;
    this.emit('state', state);
  }
}

/**
 * The video queue: each video post's medium waits `queued` until an instance with a free slot claims it
 * (`FOR UPDATE SKIP LOCKED`, a lease it renews while ffmpeg runs), then transcodes it to HLS with a poster,
 * and marks the medium and its post ready — or failed with a message when the file is not a video. An
 * instance killed mid-run leaves a lease that runs out; the next claim takes the video again. A video that
 * took down its runner MAX_ATTEMPTS times fails instead of taking down the next one.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { transcodeToHls, VideoRefused } from '../../platform/media/video-transcode';
import { putFolder, type FileStore } from '../../platform/storage/storage';
import { isDiskFull } from '../../platform/uploads/disk-full';
import { renderBlurred, renderImage } from '../../platform/uploads/images';
import { MEDIA_FILES } from './media';
import { postMedia, posts } from './tables';

export const LEASE_SECONDS = 30;
const RENEW_EVERY_MS = 10_000;
const PROGRESS_EVERY_MS = 1_000;
export const MAX_ATTEMPTS = 3;
/** A transcode that met a full disk is tried again after this long (its lease is set to run out then). */
export const DISK_FULL_RETRY_SECONDS = 60;
/** The uploaded file, kept in the medium's folder until its transcode is done. */
export const SOURCE_FILE = 'source';

interface Claimed {
  id: number;
  /** None: a vault medium (decision 0088). */
  postId: number | null;
  key: string;
  attempts: number;
}

export function createTranscodes(deps: {
  db: Db; files: FileStore; log: FastifyBaseLogger; concurrency: number; pollMs?: number;
  /** A video post became ready (or failed): the cached channel listings are dropped. */
  listingsChanged?: () => Promise<void>;
}) {
  const { db, files, log } = deps;
  const running = new Map<number, AbortController>();
  let timer: NodeJS.Timeout | null = null;
  let stopping = false;

  /** One queued video, or one whose runner's lease ran out. Literal predicates: the partial index serves them. */
  async function claim(): Promise<Claimed | null> {
    const result = await db.execute(sql`
      update ${postMedia} set transcode_state = 'running', lease_until = now() + interval '${sql.raw(String(LEASE_SECONDS))} seconds',
        transcode_attempts = transcode_attempts + 1
      where id = (
        select id from ${postMedia}
        where transcode_state in ('queued', 'running') and (transcode_state = 'queued' or lease_until < now())
        order by id limit 1 for update skip locked)
      returning id, post_id, key, transcode_attempts`);
    const row = result.rows[0] as { id: string | number; post_id: string | number | null; key: string; transcode_attempts: number } | undefined;
    return row ? { id: Number(row.id), postId: row.post_id === null ? null : Number(row.post_id), key: row.key, attempts: Number(row.transcode_attempts) } : null;
  }

  async function finish(job: Claimed, outcome: { failure: string } | { width: number; height: number; duration: number }) {
    await db.transaction(async (tx) => {
      if ('failure' in outcome) {
        await tx.update(postMedia).set({ transcodeState: 'failed', leaseUntil: null }).where(eq(postMedia.id, job.id));
        if (job.postId !== null) await tx.update(posts).set({ state: 'failed', failure: outcome.failure }).where(eq(posts.id, job.postId));
      } else {
        await tx.update(postMedia).set({ transcodeState: 'done', transcodeProgress: 100, leaseUntil: null, width: outcome.width, height: outcome.height, durationSeconds: outcome.duration })
          .where(eq(postMedia.id, job.id));
        if (job.postId !== null) await tx.update(posts).set({ state: 'ready', failure: null }).where(and(eq(posts.id, job.postId), eq(posts.state, 'processing')));
      }
    });
    await deps.listingsChanged?.();
    await files.remove(`${job.key}/${SOURCE_FILE}`);
  }

  /** Failed for want of room, said so on the post, and claimable again once its lease runs out; the attempt does not count. */
  async function waitForRoom(job: Claimed) {
    await db.transaction(async (tx) => {
      await tx.update(postMedia).set({
        leaseUntil: sql`now() + interval '${sql.raw(String(DISK_FULL_RETRY_SECONDS))} seconds'`,
        transcodeAttempts: sql`${postMedia.transcodeAttempts} - 1`,
      }).where(eq(postMedia.id, job.id));
      if (job.postId !== null) await tx.update(posts).set({ failure: MSG.videoWaitsForRoom }).where(and(eq(posts.id, job.postId), eq(posts.state, 'processing')));
    });
  }

  async function run(job: Claimed) {
    const controller = new AbortController();
    running.set(job.id, controller);
    let lastProgress = 0;
    const renew = setInterval(() => {
      void db.update(postMedia).set({ leaseUntil: sql`now() + interval '${sql.raw(String(LEASE_SECONDS))} seconds'` })
        .where(and(eq(postMedia.id, job.id), eq(postMedia.transcodeState, 'running'))).catch(() => undefined);
    }, RENEW_EVERY_MS);
    try {
      if (job.attempts > MAX_ATTEMPTS) return await finish(job, { failure: MSG.videoBroken });
      // ffmpeg reads a local copy of the source and writes into a work directory; the results are stored after.
      const result = await files.withWorkDir((out) => files.withLocalCopy(`${job.key}/${SOURCE_FILE}`, async (source) => {
        const hls = await transcodeToHls(source, out, {
          signal: controller.signal,
          onProgress: (fraction) => {
            if (Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
            lastProgress = Date.now();
            void db.update(postMedia).set({ transcodeProgress: Math.min(99, Math.floor(fraction * 100)) }).where(eq(postMedia.id, job.id)).catch(() => undefined);
          },
        });
        const poster = await readFile(path.join(out, path.relative('hls', MEDIA_FILES.poster)));
        await files.removeFolder(`${job.key}/hls`);
        await putFolder(files, `${job.key}/hls`, out, { move: true });
        return { ...hls, poster };
      }));
      // A medium deleted meanwhile (its post removed) has no source any more.
      if (!result) throw new VideoRefused('the source is gone');
      const tile = await renderImage(result.poster, 'tile');
      await files.put(`${job.key}/${MEDIA_FILES.tile}`, tile.data);
      await files.put(`${job.key}/${MEDIA_FILES.locked}`, await renderBlurred(tile.data));
      await finish(job, { width: result.width, height: result.height, duration: result.durationSeconds });
    } catch (error) {
      if (error instanceof VideoRefused) {
        log.info({ mediaId: job.id, reason: error.message }, 'video refused');
        await finish(job, { failure: MSG.videoBroken });
      } else if (isDiskFull(error)) {
        log.error({ mediaId: job.id }, `disk full: the transcode stopped and is tried again in ${DISK_FULL_RETRY_SECONDS} s`);
        await waitForRoom(job).catch(() => undefined);
      } else if (stopping) {
        // Shutting down: give the video back now rather than when the lease runs out.
        await db.update(postMedia).set({ transcodeState: 'queued', leaseUntil: null, transcodeAttempts: sql`${postMedia.transcodeAttempts} - 1` })
          .where(eq(postMedia.id, job.id)).catch(() => undefined);
      } else {
        log.warn({ err: error, mediaId: job.id }, 'transcode failed; it will be tried again');
        await db.update(postMedia).set({ transcodeState: 'queued', leaseUntil: null }).where(eq(postMedia.id, job.id)).catch(() => undefined);
      }
    } finally {
      clearInterval(renew);
      running.delete(job.id);
    }
  }

  /** Claims videos while this instance has free slots; each runs in the background. */
  async function fill(): Promise<void> {
    while (!stopping && running.size < deps.concurrency) {
      const job = await claim();
      if (!job) return;
      void run(job).finally(() => void fill().catch(() => undefined));
    }
  }

  return {
    /** Looks for work now (a video was just queued on this instance). */
    kick: () => void fill().catch((err) => log.warn({ err }, 'transcode queue')),
    start() {
      if (deps.concurrency === 0 || timer) return;
      stopping = false;
      timer = setInterval(() => void fill().catch((err) => log.warn({ err }, 'transcode queue')), deps.pollMs ?? 5_000);
      timer.unref();
      void fill().catch(() => undefined);
    },
    async stop() {
      stopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      for (const controller of running.values()) controller.abort();
      while (running.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    /** Videos this instance is transcoding now. */
    active: () => running.size,
  };
}

export type Transcodes = ReturnType<typeof createTranscodes>;

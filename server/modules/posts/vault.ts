/**
 * A creator's vault (decision 0088): every image and video they uploaded, whether for a post or for the
 * vault itself, reusable in new posts and in messages. A medium in no post is a `post_media` row without
 * `post_id`; reusing one adds a row that shares its storage folder (`key`), so nothing is copied and a
 * post's deletion keeps a folder another row still shows.
 */
import { extname } from 'node:path';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { VaultItem } from '../../../common/api/vault';
import { MSG } from '../../../common/messages';
import type { Db, Executor } from '../../platform/db/client';
import { AppError, badRequest, notFound } from '../../platform/http/errors';
import type { FileStore } from '../../platform/storage/storage';
import { withLocalFiles, type FinishedUpload, type ResumableUploads } from '../../platform/uploads/resumable';
import type { MediaAddresses, Viewer } from '../streams';
import { MEDIA_FILES } from './media';
import { createPostFiles, VIDEO_EXTENSIONS } from './post-files';
import type { PostQuotaChecks } from './quotas';
import { postMedia, posts } from './tables';

type MediaRow = typeof postMedia.$inferSelect;
type ShownRow = Pick<MediaRow, 'id' | 'kind' | 'transcodeState' | 'width' | 'height' | 'durationSeconds'>;
type Stored = { kind: 'image' | 'video'; key: string; width: number; height: number; duration: number | null; bytes: number };

/** A medium as a page shows it: its state and, when `open`, its addresses; else its blurred tile only. */
export interface MediumView {
  media_id: number;
  type: 'image' | 'video';
  state: 'processing' | 'ready' | 'failed';
  width: number | null;
  height: number | null;
  duration: number | null;
  url: string | null;
  thumb_url: string | null;
}

const stateOf = (row: Pick<MediaRow, 'kind' | 'transcodeState'>): MediumView['state'] =>
  row.kind === 'image' || row.transcodeState === 'done' ? 'ready' : row.transcodeState === 'failed' ? 'failed' : 'processing';

/** Rows of the owner's that still show: in no post, or in a post that was not deleted. */
const liveSql = sql`(${postMedia.postId} is null or exists (select 1 from ${posts} p where p.id = ${postMedia.postId} and p.deleted_at is null))`;

/** What a page may know of a medium without addresses (realtime frames carry no signed address). */
export function describeMedium(row: ShownRow): MediumView {
  return {
    media_id: row.id,
    type: row.kind,
    state: stateOf(row),
    width: row.width,
    height: row.height,
    duration: row.durationSeconds === null ? null : Number(row.durationSeconds),
    url: null,
    thumb_url: null,
  };
}

/** Media rows by id, for pages that show them (messages). */
export async function mediumFacts(db: Db, mediaIds: number[]): Promise<Map<number, MediaRow>> {
  if (mediaIds.length === 0) return new Map();
  const rows = await db.select().from(postMedia).where(inArray(postMedia.id, [...new Set(mediaIds)]));
  return new Map(rows.map((r) => [r.id, r]));
}

export function createVault(deps: {
  db: Db;
  files: FileStore;
  uploads: ResumableUploads;
  addresses: MediaAddresses;
  quotas: Pick<PostQuotaChecks, 'pixelsAllowed' | 'pixelsPerPost'>;
  onVideoQueued: () => void;
}) {
  const { db, files, uploads } = deps;
  const { storeImages, storeVideo } = createPostFiles({ files, quotas: deps.quotas });

  /** One upload into its folder: a video by its name (the bytes decide again), anything else as an image. */
  async function store(upload: FinishedUpload): Promise<Stored> {
    const filename = upload.metadata.filename;
    if (VIDEO_EXTENSIONS.has(extname(filename ?? '').toLowerCase())) {
      const video = await withLocalFiles([upload], ([path]) => storeVideo(path!, filename));
      return { kind: 'video', ...video, bytes: upload.size };
    }
    const [image] = await withLocalFiles([upload], (paths) => storeImages(paths));
    return { kind: 'image', ...image!, duration: null, bytes: upload.size };
  }

  /** The medium with addresses signed for the viewer: the medium itself when `open`, else only its blurred tile. */
  function view(row: ShownRow, viewer: Viewer, open: boolean): MediumView {
    const described = describeMedium(row);
    if (described.state !== 'ready') return described;
    const sign = deps.addresses(viewer);
    const tile = row.kind === 'image' ? MEDIA_FILES.tile : MEDIA_FILES.poster;
    return {
      ...described,
      url: open ? sign(row.id, row.kind === 'image' ? MEDIA_FILES.full : MEDIA_FILES.playlist) : null,
      thumb_url: sign(row.id, open ? tile : MEDIA_FILES.locked),
    };
  }

  const item = (row: MediaRow, viewer: Viewer): VaultItem => ({ ...view(row, viewer, true), created_time: new Date(row.createdAt).toISOString(), in_post: row.postId !== null });

  async function ownedLive(exec: Executor, ownerId: number, mediaIds: number[]) {
    if (mediaIds.length === 0) return [];
    return exec.select().from(postMedia).where(and(inArray(postMedia.id, mediaIds), eq(postMedia.ownerId, ownerId), liveSql));
  }

  return {
    /** Finished uploads into the owner's vault, each its own medium; a refused file is kept nowhere. */
    async add(viewer: Viewer & { principal: NonNullable<Viewer['principal']> }, uploadIds: string[]): Promise<VaultItem[]> {
      const ownerId = viewer.principal.userId;
      const found: FinishedUpload[] = [];
      for (const id of new Set(uploadIds)) {
        const upload = await uploads.finished(id, ownerId);
        if (!upload) throw notFound(MSG.uploadUnknown);
        found.push(upload);
      }
      const stored: Stored[] = [];
      try {
        for (const upload of found) stored.push(await store(upload));
      } catch (error) {
        await Promise.all(stored.map((s) => files.removeFolder(s.key)));
        if (error instanceof AppError && error.status === 400) await Promise.all(found.map((u) => uploads.remove(u.id)));
        throw error;
      }
      const rows = await db.insert(postMedia).values(stored.map((s) => ({
        ownerId, position: 0, kind: s.kind, key: s.key, width: s.width, height: s.height, durationSeconds: s.duration, bytes: s.bytes,
        transcodeState: s.kind === 'video' ? ('queued' as const) : null,
      }))).returning();
      await Promise.all(found.map((u) => uploads.remove(u.id)));
      if (stored.some((s) => s.kind === 'video')) deps.onVideoQueued();
      return rows.map((row) => item(row, viewer));
    },

    /** The owner's media, the newest first, one per stored folder (a reused one shows once). */
    async list(viewer: Viewer & { principal: NonNullable<Viewer['principal']> }, page: { offset: number; limit: number }): Promise<{ items: VaultItem[]; total: number }> {
      const ownerId = viewer.principal.userId;
      const newestPerKey = db.selectDistinctOn([postMedia.key]).from(postMedia)
        .where(and(eq(postMedia.ownerId, ownerId), liveSql)).orderBy(postMedia.key, desc(postMedia.id)).as('newest');
      const [rows, [counted]] = await Promise.all([
        db.select().from(newestPerKey).orderBy(desc(newestPerKey.id)).offset(page.offset).limit(page.limit),
        db.select({ n: sql<number>`count(distinct ${postMedia.key})::int` }).from(postMedia).where(and(eq(postMedia.ownerId, ownerId), liveSql)),
      ]);
      return {
        total: Number(counted?.n ?? 0),
        items: rows.map((row) => item(row, viewer)),
      };
    },

    /**
     * The owner's vault medium for a message: a post's medium is reused as a row of its own in no post
     * (one per folder), so what the message opens is decided by the message, not the post.
     */
    async forMessage(ownerId: number, mediaId: number): Promise<number> {
      const [row] = await ownedLive(db, ownerId, [mediaId]);
      if (!row) throw notFound(MSG.vaultMediumUnknown);
      if (stateOf(row) === 'failed') throw badRequest(MSG.videoBroken, 'media_id');
      if (row.postId === null) return row.id;
      // A post's video is shared once transcoded: a copy queued beside it would transcode the same folder twice.
      if (stateOf(row) !== 'ready') throw badRequest(MSG.vaultMediumNotReady, 'media_id');
      const [loose] = await db.select({ id: postMedia.id }).from(postMedia)
        .where(and(eq(postMedia.ownerId, ownerId), eq(postMedia.key, row.key), isNull(postMedia.postId))).limit(1);
      if (loose) return loose.id;
      const [made] = await db.insert(postMedia).values({
        ownerId, position: 0, kind: row.kind, key: row.key, width: row.width, height: row.height, durationSeconds: row.durationSeconds,
        transcodeState: row.transcodeState, transcodeProgress: row.transcodeProgress,
      }).returning({ id: postMedia.id });
      return made!.id;
    },

    /** The stored facts of the owner's ready vault media for a new post, in the order asked; 404 for any other. */
    async forPost(ownerId: number, mediaIds: number[]): Promise<Array<Stored & { transcodeState: MediaRow['transcodeState'] }>> {
      const rows = new Map((await ownedLive(db, ownerId, mediaIds)).map((r) => [r.id, r]));
      return mediaIds.map((id) => {
        const row = rows.get(id);
        if (!row) throw notFound(MSG.vaultMediumUnknown);
        if (stateOf(row) !== 'ready') throw badRequest(MSG.vaultMediumNotReady, 'vault_ids');
        return { kind: row.kind, key: row.key, width: row.width ?? 0, height: row.height ?? 0, duration: row.durationSeconds, bytes: 0, transcodeState: row.transcodeState };
      });
    },

    view,

    /** Of these folders, those a row still shows (a post's deletion removes the others' files). */
    async foldersInUse(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db.selectDistinct({ key: postMedia.key }).from(postMedia).where(and(inArray(postMedia.key, keys), liveSql));
      return new Set(rows.map((r) => r.key));
    },
  };
}

export type Vault = ReturnType<typeof createVault>;

/**
 * Per-person limits on what they upload and publish (decision 0040): the bytes they keep in posts and
 * unfinished uploads together (and in their vault, decision 0088), the uploads they start and the posts they publish in 24 hours, and the
 * pixels of one post's images together. Each is decided before anything is stored: an upload at its
 * creation (its declared size), a post before its images are decoded. One person's checks run one at a
 * time (a lock per person), so parallel requests cannot slip past a limit together.
 */
import { and, count, eq, gt, isNull, sql } from 'drizzle-orm';
import { fill, MSG } from '../../../common/messages';
import { lockForTransaction } from '../../platform/db/advisory-lock';
import type { Db, Executor } from '../../platform/db/client';
import { tooManyRequests } from '../../platform/http/errors';
import type { UploadRefusal } from '../../platform/uploads/resumable';
import { uploadLimitText } from './service';
import { postMedia, posts, uploadStarts } from './tables';

export interface PostQuotas {
  storedBytes: number;
  uploadsPerDay: number;
  postsPerDay: number;
  pixelsPerPost: number;
}

const DAY_MS = 24 * 3600_000;

const lockPerson = (tx: Executor, userId: number) => lockForTransaction(tx, `post-quota:${userId}`);

export function createPostQuotas(deps: { db: Db; quotas: PostQuotas; uploadExpiryMs: number; now?: () => Date }) {
  const { db, quotas } = deps;
  const now = deps.now ?? (() => new Date());
  const since = (ms: number) => new Date(now().getTime() - ms);

  /** Bytes the person keeps: their posts that are not deleted, and uploads not yet published, given up or expired. */
  async function storedBytes(tx: Executor, userId: number): Promise<number> {
    const { rows } = await tx.execute<{ bytes: string | number }>(sql`select
        (select coalesce(sum(p.bytes), 0) from ${posts} p where p.user_id = ${userId} and p.deleted_at is null)
      + (select coalesce(sum(m.bytes), 0) from ${postMedia} m where m.owner_id = ${userId} and m.post_id is null)
      + (select coalesce(sum(u.bytes), 0) from ${uploadStarts} u
         where u.user_id = ${userId} and u.settled_at is null and u.created_at > ${since(deps.uploadExpiryMs)}) as bytes`);
    return Number(rows[0]?.bytes ?? 0);
  }

  return {
    /** The tus creation's check: the uploads started today and the storage, then the upload is counted. */
    async admitUpload(userId: number, upload: { id: string; size: number }): Promise<UploadRefusal | null> {
      return db.transaction(async (tx) => {
        await lockPerson(tx, userId);
        const [started] = await tx.select({ n: count() }).from(uploadStarts)
          .where(and(eq(uploadStarts.userId, userId), gt(uploadStarts.createdAt, since(DAY_MS))));
        if ((started?.n ?? 0) >= quotas.uploadsPerDay) return { status: 429, message: fill(MSG.uploadsPerDay, { count: quotas.uploadsPerDay }) };
        if ((await storedBytes(tx, userId)) + upload.size > quotas.storedBytes) {
          return { status: 413, message: fill(MSG.uploadQuotaFull, { size: uploadLimitText(quotas.storedBytes) }) };
        }
        await tx.insert(uploadStarts).values({ uploadId: upload.id, userId, bytes: upload.size });
        return null;
      });
    },

    /** The upload's file went: its bytes count no longer (a post made of it counts them instead). */
    async settleUpload(uploadId: string): Promise<void> {
      await db.update(uploadStarts).set({ settledAt: now() }).where(and(eq(uploadStarts.uploadId, uploadId), isNull(uploadStarts.settledAt)));
    },

    /** In the post's transaction, before it is written: the posts published today. */
    async admitPost(tx: Executor, userId: number): Promise<void> {
      await lockPerson(tx, userId);
      // Deleted posts count too: deleting does not give a publication back.
      const [published] = await tx.select({ n: count() }).from(posts).where(and(eq(posts.userId, userId), gt(posts.createdAt, since(DAY_MS))));
      if ((published?.n ?? 0) >= quotas.postsPerDay) throw tooManyRequests(fill(MSG.postsPerDay, { count: quotas.postsPerDay }));
    },

    /** Whether a post's images together stay within the pixels of one post. */
    pixelsAllowed: (pixels: number) => pixels <= quotas.pixelsPerPost,
    pixelsPerPost: quotas.pixelsPerPost,
  };
}

export type PostQuotaChecks = ReturnType<typeof createPostQuotas>;

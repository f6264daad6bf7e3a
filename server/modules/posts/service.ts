/**
 * Posts: publishing from finished uploads, the post as a viewer sees it, likes, bookmarks, complaints,
 * edits, deletion and purchases. The only writer of the posts tables; money moves through the ledger.
 */
import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { COALESCED_READS, createBatcher } from '../../platform/batching';
import type { EventOutbox } from '../../platform/event-outbox';
import type * as api from '../../../common/api/posts';
import { POST_SCHEDULE_MAX_DAYS } from '../../../common/rules/post-schedule';
import { uploadPermissionFor } from '../../../common/permissions';
import { fill, MSG } from '../../../common/messages';
import { postPrice } from '../../../common/rules/pay-wall';
import { SKINS } from '../../../common/skins';
import { mayModerate } from '../../../common/rules/moderation';
import { recordAudit } from '../../platform/audit/audit';
import { sqlState, UNIQUE_VIOLATION, type Db, type Tx } from '../../platform/db/client';
import { preparedStatement } from '../../platform/db/prepared';
import { AppError, appError, badRequest, conflict, forbidden, notFound } from '../../platform/http/errors';
import type { FileStore } from '../../platform/storage/storage';
import { withLocalFiles, type FinishedUpload, type ResumableUploads } from '../../platform/uploads/resumable';
import type { AccountsService } from '../accounts';
import { InsufficientFunds, platformFee, receivingShard, type Ledger } from '../ledger';
import { offersPlan } from '../subscriptions';
import type { Viewer } from '../streams';
import { isScheduled, type PostAccess, type PostRow, type Standing } from './access';
import type { MediaAddresses } from '../streams';
import { MEDIA_FILES } from './media';
import { createPostFiles } from './post-files';
import type { PostQuotaChecks } from './quotas';
import type { Vault } from './vault';
import { postLikes, postMedia, postPurchases, postReports, posts, postSaves } from './tables';
import { integerArray } from '../../platform/db/arrays';

type CreateInput = z.output<typeof api.createPost.input>;

/** A publication time, when given, is ahead (at most POST_SCHEDULE_MAX_DAYS) and before the expiry. */
function assertSchedulable(input: Pick<CreateInput, 'publish_at' | 'expires'>, now = Date.now()) {
  if (!input.publish_at) return;
  const at = new Date(input.publish_at).getTime();
  if (at <= now || at > now + POST_SCHEDULE_MAX_DAYS * 24 * 3600_000) throw badRequest(fill(MSG.publishAtFuture, { days: POST_SCHEDULE_MAX_DAYS }), 'publish_at');
  if (input.expires && new Date(input.expires).getTime() <= at) throw badRequest(MSG.expiryAfterPublication, 'expires');
}
type EditInput = z.output<typeof api.editPost.input>;
type MediaRow = typeof postMedia.$inferSelect;
/** A medium a new post is made of: stored from an upload now, or reused from the vault (its transcode as it stands). */
type StoredMedium = { key: string; width: number; height: number; duration: number | null; transcodeState: MediaRow['transcodeState'] };
const needsTranscode = (s: StoredMedium) => s.transcodeState === 'queued' || s.transcodeState === 'running';

/** The ledger key of a purchase: one per buyer and post, so a repeated purchase moves nothing again. */
export const purchaseKey = (postId: number, buyerId: number) => `post:${postId}:buyer:${buyerId}`;

export function createPostsService(deps: {
  db: Db;
  files: FileStore;
  uploads: ResumableUploads;
  ledger: Ledger;
  accounts: AccountsService;
  access: PostAccess;
  addresses: MediaAddresses;
  feePercent: number;
  /** A video post was queued: look for work now. */
  onVideoQueued: () => void;
  /** Drops the cached channel listings on every instance: a post appeared, changed or went. */
  listingsChanged?: () => Promise<void>;
  /** The per-person limits on posts and their images. */
  quotas: PostQuotaChecks;
  /** Events that follow a commit (a sale told to the seller). */
  outbox?: EventOutbox;
  /** The creators' media kept for reuse (decision 0088). */
  vault: Pick<Vault, 'forPost' | 'foldersInUse'>;
}) {
  const { db, files, uploads, ledger, access } = deps;
  const { storeImages, storeVideo } = createPostFiles({ files, quotas: deps.quotas });

  /** A post by id, and a post's media in order: prepared statements (the post page is read far more than written). */
  const postById = preparedStatement(db.select().from(posts).where(eq(posts.id, sql.placeholder('id'))), 'posts_by_id');
  const mediaOfPost = preparedStatement(db.select().from(postMedia).where(eq(postMedia.postId, sql.placeholder('id'))).orderBy(asc(postMedia.position)), 'posts_media_of');

  async function findPost(postId: number): Promise<PostRow> {
    const [row] = await postById({ id: postId });
    if (!row || row.deletedAt) throw notFound(MSG.postNotAvailable);
    return row;
  }

  /** The post, the viewer's standing with it, or the refusal the post page shows (`teaser`: see `Standing`). */
  async function visiblePost(postId: number, viewer: Viewer, options: { teaser?: boolean } = {}) {
    const row = await findPost(postId);
    return { row, standing: await access.standing(row, viewer, options) };
  }

  function assertMayPublish(viewer: Viewer, input: CreateInput) {
    const perms = viewer.principal?.perms ?? [];
    const needed = uploadPermissionFor(input.content_rating);
    if (!perms.includes(needed) || (input.content_rating === 'PLUS_18' && !SKINS[viewer.skin].flags.adultContent)) throw forbidden(MSG.uploadPermissionNeeded);
  }

  async function isSaved(postId: number, viewerId: number | null) {
    if (viewerId === null) return false;
    return (await db.select({ id: postSaves.postId }).from(postSaves).where(and(eq(postSaves.postId, postId), eq(postSaves.userId, viewerId))).limit(1)).length > 0;
  }

  async function hasLiked(postId: number, viewerId: number | null) {
    if (viewerId === null) return false;
    return (await db.select({ id: postLikes.postId }).from(postLikes).where(and(eq(postLikes.postId, postId), eq(postLikes.userId, viewerId))).limit(1)).length > 0;
  }

  /** The post and its media rows, in one transaction (`admit`: the person's quota, checked in it first). */
  async function insertPost(userId: number, input: CreateInput, stored: StoredMedium[], bytes: number, admit?: (tx: Tx) => Promise<void>) {
    const id = await db.transaction(async (tx) => {
      await admit?.(tx);
      const [row] = await tx.insert(posts).values({
        userId,
        kind: input.type,
        state: stored.some(needsTranscode) ? 'processing' : 'ready',
        title: input.title,
        description: input.description ?? '',
        audience: input.audience,
        rating: input.content_rating,
        price: postPrice(input.tip),
        commentsAllowed: input.comments_allowed,
        expiresAt: input.expires ? new Date(input.expires) : null,
        // A scheduled post's time is its publication: listings order by it and others see it from then on.
        ...(input.publish_at ? { createdAt: new Date(input.publish_at) } : {}),
        mediaCount: stored.length,
        bytes,
      }).returning({ id: posts.id });
      await tx.insert(postMedia).values(stored.map((s, position) => ({
        postId: row!.id,
        ownerId: userId,
        position,
        kind: input.type,
        key: s.key,
        width: s.width,
        height: s.height,
        durationSeconds: s.duration,
        transcodeState: s.transcodeState,
      })));
      return row!.id;
    });
    await deps.listingsChanged?.();
    return id;
  }

  /**
   * Marks posts deleted and removes their files; buyers keep their purchases in the books. `within`
   * runs in the same transaction with the posts it deleted (none: it does not run).
   */
  async function removePosts(which: SQL, within?: (tx: Tx, removed: number[]) => Promise<void>) {
    const removed = await db.transaction(async (tx) => {
      const rows = await tx.update(posts).set({ deletedAt: new Date() }).where(and(which, isNull(posts.deletedAt))).returning({ id: posts.id });
      if (rows.length > 0) await within?.(tx, rows.map((r) => r.id));
      return rows;
    });
    if (removed.length === 0) return;
    await deps.listingsChanged?.();
    const media = await db.select({ key: postMedia.key }).from(postMedia).where(inArray(postMedia.postId, removed.map((r) => r.id)));
    // A folder another post or the vault still shows stays. A transcode in flight finds its folder gone and fails the (deleted) post.
    const kept = await deps.vault.foldersInUse(media.map((m) => m.key));
    await Promise.all(media.filter((m) => !kept.has(m.key)).map((m) => files.removeFolder(m.key)));
  }

  /**
   * A change its owner makes to a post that must not take a bought post from its buyers (deleting it,
   * making it private): the post's row locked, refused once anyone bought it. A purchase locks the
   * same row first, so the two cannot cross.
   */
  async function unlessSold(tx: Tx, postId: number) {
    await tx.select({ id: posts.id }).from(posts).where(eq(posts.id, postId)).for('update');
    const [sold] = await tx.select({ id: postPurchases.postId }).from(postPurchases).where(eq(postPurchases.postId, postId)).limit(1);
    if (sold) throw conflict(MSG.postSoldStays);
  }

  /** A moderator's deletion, recorded in the audit log in its transaction (nothing when it was gone already). */
  async function removeByModerator(actorId: number, postId: number) {
    const [row] = await db.select().from(posts).where(eq(posts.id, postId));
    if (!row) throw notFound(MSG.postNotAvailable);
    await removePosts(eq(posts.id, postId), (tx) => recordAudit(tx, {
      actorId, action: 'post.delete', targetType: 'post', targetId: postId,
      before: { title: row.title, description: row.description, owner_id: row.userId, deleted: false },
      after: { deleted: true },
    }));
  }

  /** What a post page shows beside the post's row: its media, its creator's public name, the viewer's save and like. */
  interface PostSurroundings {
    media: Array<Pick<MediaRow, 'id' | 'kind' | 'width' | 'height' | 'durationSeconds' | 'transcodeState' | 'transcodeProgress'>>;
    owner: { username: string; avatar: string | null } | undefined;
    saved: boolean;
    liked: boolean;
  }

  /**
   * Post pages' reads in one prepared statement for the pages asked together (decision 0078): each post,
   * its media in order, its creator's public name and that page's viewer's save and like (none for a
   * guest, id 0); `at` is the page's place among those asked. Every post page is read far more than written.
   * The subqueries name the post's columns with their table: drizzle writes a single table's columns bare,
   * and a bare `id` inside them would be the media's own.
   */
  const postIdColumn = sql.raw('"posts"."id"');
  const postPagesQuery = preparedStatement(
    db.select({
      at: sql<number>`asked.at::int - 1`,
      post: posts,
      owner: sql<{ username: string; avatar: string | null } | null>`(${deps.accounts.publicUserJsonSql(sql.raw('"posts"."user_id"'))})`,
      media: sql<PostSurroundings['media']>`coalesce((select json_agg(json_build_object('id', m.id, 'kind', m.kind, 'width', m.width, 'height', m.height,
        'durationSeconds', m.duration_seconds, 'transcodeState', m.transcode_state, 'transcodeProgress', m.transcode_progress) order by m.position)
        from ${postMedia} m where m.post_id = ${postIdColumn}), '[]'::json)`,
      saved: sql<boolean>`exists (select 1 from ${postSaves} s where s.post_id = ${postIdColumn} and s.user_id = asked.viewer)`,
      liked: sql<boolean>`exists (select 1 from ${postLikes} l where l.post_id = ${postIdColumn} and l.user_id = asked.viewer)`,
    }).from(posts).innerJoin(
      sql`unnest(${sql.placeholder('ids')}::bigint[], ${sql.placeholder('viewers')}::bigint[]) with ordinality as asked(id, viewer, at)`,
      sql`asked.id = ${postIdColumn}`,
    ),
    'posts_pages',
  );
  type PostPageRow = Awaited<ReturnType<typeof postPagesQuery>>[number];
  const postPages = createBatcher<{ id: number; viewer: number }, PostPageRow | undefined>({
    ...COALESCED_READS,
    run: async (asks) => {
      const rows = await postPagesQuery({ ids: integerArray(asks.map((ask) => ask.id)), viewers: integerArray(asks.map((ask) => ask.viewer)) });
      const found = new Map(rows.map((row) => [row.at, row]));
      return asks.map((_, at) => found.get(at));
    },
  });

  /** The post as the viewer sees it (spec part 1 §3 Post): media addresses only once its media is open to them. */
  function shape(row: PostRow, standing: Standing, viewer: Viewer, { media, owner, saved, liked }: PostSurroundings): api.Post {
    const sign = deps.addresses(viewer);
    const first = media[0];
    const ready = (m: PostSurroundings['media'][number]) => m.kind === 'image' || m.transcodeState === 'done';
    return {
      post_id: row.id,
      user_id: row.userId,
      user_name: owner?.username ?? '',
      user_avatar: owner?.avatar ?? null,
      entry_date: row.createdAt.toISOString(),
      title: row.title,
      description: standing.teaser ? '' : row.description,
      kind: row.kind,
      state: row.state,
      progress: row.state === 'ready' ? 100 : (first?.transcodeProgress ?? 0),
      failure: standing.owner ? row.failure : null,
      audience: row.audience,
      content_rating: row.rating,
      expires: row.expiresAt?.toISOString() ?? null,
      scheduled: isScheduled(row),
      media: standing.mediaOpen ? media.filter(ready).map((m) => ({
        media_id: m.id,
        type: m.kind,
        url: sign(m.id, m.kind === 'image' ? MEDIA_FILES.full : MEDIA_FILES.playlist),
        thumb_url: sign(m.id, m.kind === 'image' ? MEDIA_FILES.tile : MEDIA_FILES.poster),
        width: m.width,
        height: m.height,
        duration: m.durationSeconds,
      })) : [],
      media_count: row.mediaCount,
      tip_viewer_min_amount: row.price,
      tip_subscriber_min_amount: Math.round(row.price * (1 - standing.subscriberDiscount)),
      tip_subscriber_discount: standing.subscriberDiscount,
      tip_currency: 'con',
      price: standing.price,
      has_paid: standing.hasPaid,
      likes: row.likes,
      viewer_likes: liked ? 1 : 0,
      comments: row.comments,
      comments_allowed: row.commentsAllowed,
      saved,
      teaser: standing.teaser,
      thumb_url: first && ready(first) ? sign(first.id, standing.mediaOpen ? MEDIA_FILES.tile : MEDIA_FILES.locked) : null,
    };
  }


  async function present(row: PostRow, standing: Standing, viewer: Viewer): Promise<api.Post> {
    const viewerId = viewer.principal?.userId ?? null;
    const [media, owners, saved, liked] = await Promise.all([
      mediaOfPost({ id: row.id }),
      deps.accounts.publicUsers([row.userId]),
      isSaved(row.id, viewerId),
      hasLiked(row.id, viewerId),
    ]);
    return shape(row, standing, viewer, { media, owner: owners.get(row.userId), saved, liked });
  }

  /** The post page: the post as the viewer sees it, or its refusal; a subscribers-only post answers its teaser to others. */
  async function postPage(postId: number, viewer: Viewer): Promise<api.Post> {
    const found = await postPages.submit({ id: postId, viewer: viewer.principal?.userId ?? 0 });
    if (!found || found.post.deletedAt) throw notFound(MSG.postNotAvailable);
    const standing = await access.standing(found.post, viewer, { teaser: true });
    return shape(found.post, standing, viewer, { media: found.media, owner: found.owner ?? undefined, saved: found.saved, liked: found.liked });
  }

  return {
    visiblePost,
    present,
    postPage,

    async create(viewer: Viewer & { principal: NonNullable<Viewer['principal']> }, input: CreateInput): Promise<number> {
      const userId = viewer.principal.userId;
      assertMayPublish(viewer, input);
      if (input.expires && new Date(input.expires) <= new Date()) throw badRequest(MSG.expiryInFuture, 'expires');
      assertSchedulable(input);
      if (input.audience === 'subscribers' && !(await offersPlan(db, userId))) throw badRequest(MSG.createPlanFirst, 'audience');
      if (input.type === 'video' && input.upload_ids.length + input.vault_ids.length !== 1) throw badRequest(MSG.oneVideoPerPost, 'upload_ids');
      const reused = await deps.vault.forPost(userId, input.vault_ids);
      if (reused.some((m) => m.kind !== input.type)) throw badRequest(input.type === 'video' ? MSG.notAVideo : MSG.notAnImage, 'vault_ids');
      const found: FinishedUpload[] = [];
      for (const id of new Set(input.upload_ids)) {
        const upload = await uploads.finished(id, userId);
        if (!upload) throw notFound(MSG.uploadUnknown);
        found.push(upload);
      }
      // Refused before any file is read or stored; checked again, for good, in the post's transaction.
      const admit = (tx: Tx) => deps.quotas.admitPost(tx, userId);
      await db.transaction(admit);
      let stored: StoredMedium[] = [];
      try {
        if (found.length > 0) {
          stored = input.type === 'image'
            ? (await withLocalFiles(found, (paths) => storeImages(paths))).map((s) => ({ ...s, duration: null, transcodeState: null }))
            : [{ ...(await withLocalFiles(found.slice(0, 1), ([path]) => storeVideo(path!, found[0]!.metadata.filename))), transcodeState: 'queued' as const }];
        }
      } catch (error) {
        // A refused file is not kept: the uploads go with the refusal.
        if (error instanceof AppError && error.status === 400) await Promise.all(found.map((u) => uploads.remove(u.id)));
        throw error;
      }
      try {
        const postId = await insertPost(userId, input, [...stored, ...reused], found.reduce((sum, u) => sum + u.size, 0), admit);
        await Promise.all(found.map((u) => uploads.remove(u.id)));
        if (stored.some(needsTranscode)) deps.onVideoQueued();
        return postId;
      } catch (error) {
        await Promise.all(stored.map((s) => files.removeFolder(s.key)));
        throw error;
      }
    },

    /** Publishes pictures the server holds (the demo's), as create does with uploads. */
    async publishImages(userId: number, input: Omit<CreateInput, 'upload_ids' | 'vault_ids' | 'type'>, pictures: Buffer[]): Promise<number> {
      const stored = (await storeImages(pictures)).map((s) => ({ ...s, duration: null, transcodeState: null }));
      return insertPost(userId, { ...input, type: 'image', upload_ids: [], vault_ids: [] }, stored, pictures.reduce((sum, p) => sum + p.length, 0));
    },

    async like(postId: number, viewer: Viewer & { principal: NonNullable<Viewer['principal']> }, like: boolean) {
      const { row, standing } = await visiblePost(postId, viewer);
      if (standing.owner) throw forbidden(MSG.cannotLikeOwnPost);
      const userId = viewer.principal.userId;
      // The count moves only when the person's like row does: a person counts once.
      const changed = like
        ? await db.insert(postLikes).values({ postId, userId }).onConflictDoNothing().returning({ id: postLikes.postId })
        : await db.delete(postLikes).where(and(eq(postLikes.postId, postId), eq(postLikes.userId, userId))).returning({ id: postLikes.postId });
      let likes = row.likes;
      if (changed.length > 0) {
        const [updated] = await db.update(posts).set({ likes: sql`greatest(0, ${posts.likes} + ${like ? 1 : -1})` }).where(eq(posts.id, postId)).returning({ likes: posts.likes });
        likes = updated?.likes ?? likes;
      }
      return { likes, viewer_likes: like ? 1 : 0 };
    },

    async save(postId: number, viewer: Viewer & { principal: NonNullable<Viewer['principal']> }, save: boolean) {
      const userId = viewer.principal.userId;
      if (!save) {
        await db.delete(postSaves).where(and(eq(postSaves.postId, postId), eq(postSaves.userId, userId)));
        return { saved: false };
      }
      const { standing } = await visiblePost(postId, viewer);
      if (standing.owner) throw forbidden(MSG.cannotSaveOwn);
      await db.insert(postSaves).values({ postId, userId }).onConflictDoNothing();
      return { saved: true };
    },

    async report(postId: number, viewer: Viewer & { principal: NonNullable<Viewer['principal']> }, complaint: { type: (typeof postReports.$inferInsert)['type']; user_comment?: string | undefined }) {
      const { standing } = await visiblePost(postId, viewer);
      if (standing.owner) throw forbidden(MSG.cannotReportOwnPost);
      const values = { postId, reporterId: viewer.principal.userId, type: complaint.type, comment: complaint.user_comment ?? '', createdAt: new Date() };
      await db.insert(postReports).values(values).onConflictDoUpdate({ target: [postReports.postId, postReports.reporterId], set: { type: values.type, comment: values.comment, createdAt: values.createdAt } });
    },

    async edit(viewer: Viewer & { principal: NonNullable<Viewer['principal']> }, input: EditInput) {
      const row = await findPost(input.post_id);
      if (row.userId !== viewer.principal.userId) throw forbidden();
      const audience = input.audience !== undefined && input.audience !== row.audience ? input.audience : undefined;
      if (audience !== undefined) {
        if (row.audience === 'private') throw forbidden(MSG.postPrivateAudience);
        if (audience === 'subscribers' && !(await offersPlan(db, row.userId))) throw badRequest(MSG.createPlanFirst, 'audience');
      }
      const updated = await db.transaction(async (tx) => {
        if (audience === 'private') await unlessSold(tx, row.id);
        const [changed] = await tx.update(posts).set({
          ...(audience !== undefined ? { audience } : {}),
          ...(input.title !== undefined ? { title: input.title } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
        }).where(eq(posts.id, row.id)).returning();
        return changed!;
      });
      await deps.listingsChanged?.();
      return present(updated, await access.standing(updated, viewer), viewer);
    },

    /**
     * Its owner deletes a post nobody bought; holders of the post.delete right (the shared moderation
     * rule) delete anyone's, audited.
     */
    async remove(postId: number, viewer: Viewer & { principal: NonNullable<Viewer['principal']> }) {
      const row = await findPost(postId);
      if (row.userId === viewer.principal.userId) return removePosts(eq(posts.id, postId), (tx) => unlessSold(tx, postId));
      if (!mayModerate(viewer.principal, 'post.delete')) throw forbidden();
      await removeByModerator(viewer.principal.userId, postId);
    },

    /** A moderator's Delete (the console's reports queue): as the owner's, for any post, and audited. */
    removeByModerator,

    /** A deleted account's posts go with it (idempotent: the event may come again). */
    forgetAccount: (userId: number) => removePosts(eq(posts.userId, userId)),

    /** Buys the post's media for the viewer: one ledger transfer and the purchase row, in one transaction. */
    async purchase(postId: number, viewer: Viewer & { principal: NonNullable<Viewer['principal']> }) {
      const buyerId = viewer.principal.userId;
      const { row, standing } = await visiblePost(postId, viewer);
      const balance = async () => (await ledger.balances(buyerId)).CON;
      if (standing.owner) throw conflict(MSG.postAlreadyYours);
      if (standing.hasPaid) return { has_paid: true as const, balance: await balance() };
      if (standing.price === 0) throw conflict(MSG.postNotForSale);
      const fee = platformFee(standing.price, deps.feePercent);
      const shard = receivingShard(buyerId);
      const legs = [
        { account: { userId: buyerId, currency: 'CON' as const }, amount: -standing.price },
        { account: { userId: row.userId, currency: 'CON' as const, shard }, amount: standing.price - fee },
        { account: { system: 'fees' as const, currency: 'CON' as const, shard }, amount: fee },
      ];
      await ledger.gather(buyerId, 'CON');
      await ledger.warmAccounts(legs.map((l) => l.account));
      try {
        await db.transaction(async (tx) => {
          // Deleted or made private meanwhile: nothing is sold (the owner's change locks the same row).
          const [still] = await tx.select({ id: posts.id }).from(posts)
            .where(and(eq(posts.id, postId), isNull(posts.deletedAt), ne(posts.audience, 'private'))).for('share');
          if (!still) throw notFound(MSG.postNotAvailable);
          const { transferId } = await ledger.transfer({
            kind: 'post_purchase',
            idempotencyKey: purchaseKey(postId, buyerId),
            fromUserId: buyerId,
            toUserId: row.userId,
            amount: standing.price,
            currency: 'CON',
            details: { post_id: postId, fee, fee_percent: deps.feePercent },
            legs,
          }, tx);
          await tx.insert(postPurchases).values({ postId, userId: buyerId, transferId }).onConflictDoNothing();
          await deps.outbox?.write(tx, 'payment.received', {
            kind: 'post_purchase', transferId, payerId: buyerId, payeeId: row.userId, amount: standing.price, subjectId: postId, title: row.title,
          });
        });
        deps.outbox?.wake();
      } catch (error) {
        if (error instanceof InsufficientFunds) throw appError('insufficient_funds', MSG.postNeedsCoins);
        // Two purchases at once: the ledger key lets one move money; the other finds it bought.
        if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
      }
      return { has_paid: true as const, balance: await balance() };
    },
  };
}

export type PostsService = ReturnType<typeof createPostsService>;

/** The spec's size text for the upload limit: "500 MB", "2 GB". */
export const uploadLimitText = (bytes: number) => (bytes >= 1e9 && bytes % 1e9 === 0 ? `${bytes / 1e9} GB` : `${Math.round(bytes / 1e6)} MB`);
export const videoTooBigMessage = (bytes: number) => fill(MSG.videoTooBig, { size: uploadLimitText(bytes) });

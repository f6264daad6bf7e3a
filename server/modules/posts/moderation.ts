/**
 * Moderators on posts and comments (the operator console's reports queue): delete a reported post or
 * comment, and the reports' read model the queue unions with the streams'. The audit log keeps what
 * was removed, in the transaction of the removal.
 */
import { eq, or, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/http/errors';
import { MSG } from '../../../common/messages';
import type { PostsService } from './service';
import { commentReports, postComments, postReports, posts } from './tables';

export function createPostModeration(deps: { db: Db; posts: PostsService }) {
  const { db } = deps;
  return {
    /** Deletes the post (its files go); the audit log keeps its caption, in the deletion's transaction. */
    deletePost: (actorId: number, postId: number) => deps.posts.removeByModerator(actorId, postId),

    /** Deletes the comment and its replies, in one transaction with the audit entry keeping its text. */
    async deleteComment(actorId: number, commentId: number) {
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(postComments).where(eq(postComments.id, commentId));
        if (!row) throw notFound(MSG.commentNotFound);
        const removed = await tx.delete(postComments)
          .where(or(eq(postComments.id, commentId), eq(postComments.parentId, commentId), eq(postComments.threadId, commentId)))
          .returning({ id: postComments.id });
        await tx.update(posts).set({ comments: sql`greatest(${posts.comments} - ${removed.length}, 0)` }).where(eq(posts.id, row.postId));
        if (row.parentId !== null) {
          await tx.update(postComments).set({ replies: sql`greatest(${postComments.replies} - 1, 0)` }).where(eq(postComments.id, row.parentId));
        }
        await recordAudit(tx, {
          actorId, action: 'comment.delete', targetType: 'comment', targetId: commentId,
          before: { body: row.body, post_id: row.postId, owner_id: row.userId }, after: { deleted: true, removed: removed.length },
        });
      });
    },
  };
}

export type PostModeration = ReturnType<typeof createPostModeration>;

/**
 * The reports of posts and of comments, for the console's queue (one row a report): kind, item_id,
 * reporter_id, type, comment, created_at, owner_id, preview (caption or comment text), image (none
 * here: post media is signed per viewer), item_state.
 */
export const postReportsSql = sql`select 'post'::text as kind, r.post_id as item_id, r.reporter_id, r.type, r.comment, r.created_at,
    p.user_id as owner_id, case when p.description <> '' then p.title || ' — ' || p.description else p.title end as preview,
    null::text as image, case when p.deleted_at is not null then 'deleted' else 'shown' end as item_state
  from ${postReports} r join ${posts} p on p.id = r.post_id`;

export const commentReportsSql = sql`select 'comment'::text as kind, r.comment_id as item_id, r.reporter_id, r.type, r.comment, r.created_at,
    c.user_id as owner_id, c.body as preview, null::text as image, 'shown'::text as item_state
  from ${commentReports} r join ${postComments} c on c.id = r.comment_id`;

/** How many posts the user published (the console's user view). */
export const postCountSql = (userId: number) => sql`(select count(*)::int from ${posts} p where p.user_id = ${userId} and p.deleted_at is null)`;

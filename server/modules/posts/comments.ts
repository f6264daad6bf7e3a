/**
 * A post's comment tree (spec part 1 §2 Post view, §3 Comment, §5): comments and replies 10 a page,
 * oldest first; a reply's thread is its top comment. Whoever may see the post may read and, signed in,
 * write (when its owner allows comments); complaints about others' comments.
 */
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Comment } from '../../../common/api/posts';
import type { COMPLAINT_TYPES } from '../../../common/api/stream-interactions';
import { MSG } from '../../../common/messages';
import type { EventOutbox } from '../../platform/event-outbox';
import type { Db } from '../../platform/db/client';
import { forbidden, notFound, tooManyRequests } from '../../platform/http/errors';
import { createThrottle } from '../../platform/throttle';
import type { AccountsService } from '../accounts';
import type { Viewer } from '../streams';
import type { PostsService } from './service';
import { commentReports, postComments, posts } from './tables';

/** Comments one person may write in a minute, across posts. */
export const COMMENTS_PER_MINUTE = 20;

type CommentRow = typeof postComments.$inferSelect;
type SignedIn = Viewer & { principal: NonNullable<Viewer['principal']> };

export function createComments(deps: { db: Db; accounts: AccountsService; posts: PostsService; outbox?: EventOutbox }) {
  const { db } = deps;
  const throttle = createThrottle(db, { windowMs: 60_000 });

  async function present(rows: CommentRow[]): Promise<Comment[]> {
    const people = await deps.accounts.publicUsers(rows.map((r) => r.userId));
    return rows.map((r) => ({
      comment_id: r.id,
      post_id: r.postId,
      user_id: r.userId,
      parent_id: r.parentId,
      thread_id: r.threadId ?? r.id,
      body: r.body,
      username: people.get(r.userId)?.username ?? '',
      avatar: people.get(r.userId)?.avatar ?? null,
      entry_date: r.createdAt.toISOString(),
      replies: r.replies,
    }));
  }

  async function findComment(commentId: number, postId?: number): Promise<CommentRow> {
    const [row] = await db.select().from(postComments).where(eq(postComments.id, commentId));
    if (!row || (postId !== undefined && row.postId !== postId)) throw notFound(MSG.commentNotFound);
    return row;
  }

  return {
    async list(input: { post_id: number; parent_id?: number | undefined; offset: number; limit: number }, viewer: Viewer) {
      await deps.posts.visiblePost(input.post_id, viewer);
      if (input.parent_id !== undefined) await findComment(input.parent_id, input.post_id);
      const where = and(eq(postComments.postId, input.post_id), input.parent_id === undefined ? isNull(postComments.parentId) : eq(postComments.parentId, input.parent_id));
      const [rows, [total]] = await Promise.all([
        db.select().from(postComments).where(where).orderBy(asc(postComments.id)).offset(input.offset).limit(input.limit),
        db.select({ n: count() }).from(postComments).where(where),
      ]);
      return { comments: await present(rows), total: total?.n ?? 0 };
    },

    async create(input: { post_id: number; parent_id?: number | undefined; body: string }, viewer: SignedIn): Promise<Comment> {
      const { row } = await deps.posts.visiblePost(input.post_id, viewer);
      if (!row.commentsAllowed) throw forbidden(MSG.commentsClosed);
      const parent = input.parent_id === undefined ? null : await findComment(input.parent_id, input.post_id);
      const { limited } = await throttle.attempt([{ key: `post-comment:${viewer.principal.userId}`, limit: COMMENTS_PER_MINUTE }]);
      if (limited) throw tooManyRequests(MSG.tooManyComments);
      const created = await db.transaction(async (tx) => {
        const [inserted] = await tx.insert(postComments).values({
          postId: input.post_id,
          userId: viewer.principal.userId,
          parentId: parent?.id ?? null,
          threadId: parent ? (parent.threadId ?? parent.id) : null,
          body: input.body,
        }).returning();
        await tx.update(posts).set({ comments: sql`${posts.comments} + 1` }).where(eq(posts.id, input.post_id));
        if (parent) await tx.update(postComments).set({ replies: sql`${postComments.replies} + 1` }).where(eq(postComments.id, parent.id));
        // The post's owner hears of it (not of their own comments: the notice skips its own actor).
        await deps.outbox?.write(tx, 'post.commented', { commentId: inserted!.id, postId: row.id, authorId: viewer.principal.userId, ownerId: row.userId, title: row.title });
        return inserted!;
      });
      deps.outbox?.wake();
      const [presented] = await present([created]);
      return presented!;
    },

    async report(input: { comment_id: number; type: (typeof COMPLAINT_TYPES)[number]; user_comment?: string | undefined }, viewer: SignedIn) {
      const comment = await findComment(input.comment_id);
      await deps.posts.visiblePost(comment.postId, viewer).catch(() => {
        throw notFound(MSG.commentNotFound);
      });
      if (comment.userId === viewer.principal.userId) throw forbidden(MSG.cannotReportOwnComment);
      const values = { commentId: comment.id, reporterId: viewer.principal.userId, type: input.type, comment: input.user_comment ?? '', createdAt: new Date() };
      await db.insert(commentReports).values(values)
        .onConflictDoUpdate({ target: [commentReports.commentId, commentReports.reporterId], set: { type: values.type, comment: values.comment, createdAt: values.createdAt } });
    },
  };
}

export type Comments = ReturnType<typeof createComments>;

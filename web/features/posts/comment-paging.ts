/**
 * Comment lists read 10 at a time (spec part 1 §2 Post view): pages as the server sent them, oldest
 * first, plus the comments this viewer wrote meanwhile (shown at once at the end). A page read after a
 * new comment may hold it again, or one already shown: each comment shows once, where it came first.
 */
import type { Comment } from '../../../common/api/posts';

export interface CommentPage {
  comments: Comment[];
  total: number;
  offset: number;
}

/** Every loaded comment once, in page order, then the viewer's own new ones not yet in a page. */
export function mergeComments(pages: ReadonlyArray<Pick<CommentPage, 'comments'>>, added: readonly Comment[] = []): Comment[] {
  const seen = new Set<number>();
  const merged: Comment[] = [];
  for (const comment of [...pages.flatMap((p) => p.comments), ...added]) {
    if (seen.has(comment.comment_id)) continue;
    seen.add(comment.comment_id);
    merged.push(comment);
  }
  return merged;
}

/**
 * The offset of the next page, or undefined at the end. Offsets count the server's rows only: the
 * viewer's added comments are not in them, so none is skipped.
 */
export function nextCommentOffset(last: CommentPage): number | undefined {
  const next = last.offset + last.comments.length;
  return last.comments.length > 0 && next < last.total ? next : undefined;
}

/** How many comments are still to load after the loaded pages (for "View N more replies"). */
export function remainingComments(pages: readonly CommentPage[]): number {
  const last = pages.at(-1);
  if (!last) return 0;
  return Math.max(0, last.total - (last.offset + last.comments.length));
}

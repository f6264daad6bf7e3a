import { describe, expect, it } from 'vitest';
import type { Comment } from '../../../common/api/posts';
import { mergeComments, nextCommentOffset, remainingComments } from './comment-paging';

const comment = (id: number): Comment => ({
  comment_id: id,
  post_id: 1,
  user_id: 10,
  parent_id: null,
  thread_id: id,
  body: `comment ${id}`,
  username: 'someone',
  avatar: null,
  entry_date: '2030-01-01T00:00:00Z',
  replies: 0,
});
const ids = (list: Comment[]) => list.map((c) => c.comment_id);

describe('comment pages', () => {
  it('shows each comment once, pages first, then the viewer’s new ones', () => {
    const pages = [{ comments: [comment(1), comment(2)] }, { comments: [comment(2), comment(3)] }];
    expect(ids(mergeComments(pages))).toEqual([1, 2, 3]);
    expect(ids(mergeComments(pages, [comment(9), comment(3)]))).toEqual([1, 2, 3, 9]);
    expect(ids(mergeComments([], [comment(9)]))).toEqual([9]);
  });

  it('reads the next page after the server’s rows, until the total', () => {
    expect(nextCommentOffset({ comments: Array.from({ length: 10 }, (_, i) => comment(i + 1)), total: 25, offset: 0 })).toBe(10);
    expect(nextCommentOffset({ comments: [comment(21), comment(22), comment(23), comment(24), comment(25)], total: 25, offset: 20 })).toBeUndefined();
    expect(nextCommentOffset({ comments: [], total: 25, offset: 30 })).toBeUndefined();
  });

  it('counts what is left to load', () => {
    expect(remainingComments([])).toBe(0);
    expect(remainingComments([{ comments: [comment(1), comment(2)], total: 7, offset: 0 }])).toBe(5);
    expect(remainingComments([{ comments: [comment(1)], total: 1, offset: 0 }])).toBe(0);
  });
});

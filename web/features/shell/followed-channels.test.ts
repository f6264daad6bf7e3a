import { describe, expect, it } from 'vitest';
import type { StreamTile } from '../../../common/api/streams';
import { orderFollowed } from './followed-channels';

const user = (user_id: number) => ({ user_id, username: `u${user_id}`, avatar: null });
const stream = (stream_id: number, user_id: number, live: 'Y' | 'N') => ({ stream_id, user_id, live }) as StreamTile;

describe('orderFollowed', () => {
  it('puts live channels first in the listing order, then the others as followed', () => {
    const followed = [user(1), user(2), user(3), user(4)];
    const streams = [stream(30, 3, 'Y'), stream(40, 4, 'Y'), stream(31, 3, 'Y'), stream(10, 1, 'N')];
    expect(orderFollowed(followed, streams).map((c) => [c.user.user_id, c.liveStreamId])).toEqual([
      [3, 30],
      [4, 40],
      [1, null],
      [2, null],
    ]);
  });

  it('keeps the followed order when nobody is live, and ignores streams of people not followed', () => {
    expect(orderFollowed([user(2), user(1)], [stream(9, 9, 'Y')]).map((c) => [c.user.user_id, c.liveStreamId])).toEqual([
      [2, null],
      [1, null],
    ]);
  });
});

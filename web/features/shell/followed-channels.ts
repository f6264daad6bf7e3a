/** The side bar's followed channels: everyone the signed-in user follows, those live now first. */
import { useQuery } from '@tanstack/react-query';
import { social, streams } from '../../../common/api/calls';
import type { follower } from '../../../common/api/social';
import type { StreamTile } from '../../../common/api/streams';
import { PAGE_SIZE, SIDEBAR_FOLLOWED_REFRESH_MS } from '../../../common/constants';
import type { z } from 'zod';
import { call } from '../../api/client';
import { socialKeys } from '../social';
import { useBaseGroup } from '../system';

/** The base channel that lists the streams of followed users, live first. */
const FOLLOWING_CHANNEL = 'Following';

export interface FollowedChannel {
  user: Pick<z.infer<typeof follower>, 'user_id' | 'username' | 'avatar'>;
  /** The stream they are live on now. */
  liveStreamId: number | null;
}

/** Live ones first (as the Following channel orders them), then the others as followed (newest first). */
export function orderFollowed(followees: Array<FollowedChannel['user']>, followedStreams: StreamTile[]): FollowedChannel[] {
  const liveStream = new Map<number, number>();
  for (const s of followedStreams) if (s.live === 'Y' && !liveStream.has(s.user_id)) liveStream.set(s.user_id, s.stream_id);
  const liveRank = new Map([...liveStream.keys()].map((id, i) => [id, i]));
  const rank = (id: number) => liveRank.get(id) ?? liveRank.size;
  return followees
    .map((user) => ({ user, liveStreamId: liveStream.get(user.user_id) ?? null }))
    .sort((a, b) => rank(a.user.user_id) - rank(b.user.user_id));
}

export function useFollowedChannels(userId: number | null) {
  const channels = useBaseGroup(userId);
  const followingChannel = channels.data?.find((c) => c.name === FOLLOWING_CHANNEL)?.id;
  return useQuery({
    queryKey: [...socialKeys.followedChannels(), userId ?? 0],
    enabled: userId !== null && channels.isSuccess,
    refetchInterval: SIDEBAR_FOLLOWED_REFRESH_MS,
    queryFn: async () => {
      const [followed, live] = await Promise.all([
        call(social.following, { id: userId ?? 0, offset: 0, limit: PAGE_SIZE.followers }),
        followingChannel ? call(streams.listChannelStreams, { id: followingChannel, offset: 0, limit: PAGE_SIZE.streams }) : { streams: [] },
      ]);
      return orderFollowed(followed.following, live.streams);
    },
  });
}

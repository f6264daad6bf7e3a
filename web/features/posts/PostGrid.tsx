import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { PostTile } from '../../../common/api/posts';
import { MSG } from '../../../common/messages';
import { ImageIcon } from '../../ui/icons';
import { TileGrid } from '../../ui/TileGrid';
import { useChannelPosts, useSavedPosts, useUserPosts } from './api';
import { PostTileCard } from './PostTileCard';

type Pages = UseInfiniteQueryResult<InfiniteData<{ posts: PostTile[] }>>;

const postsOf = (page: { posts: PostTile[] }) => page.posts;
const postKey = (post: PostTile) => post.post_id;

/** Post tiles of a listing, more as the end comes into view. */
export function PostGrid({ query, empty, label, showAuthor = true }: { query: Pages; empty: string; label: string; showAuthor?: boolean }) {
  return (
    <TileGrid
      query={query}
      itemsOf={postsOf}
      keyOf={postKey}
      render={(post) => <PostTileCard post={post} showAuthor={showAuthor} />}
      empty={empty}
      emptyIcon={<ImageIcon />}
      label={label}
    />
  );
}

/** The profile's Photos tab (user-posts): the author is the profile's, so tiles leave their name out. */
export function UserPosts({ userId }: { userId: number }) {
  return <PostGrid query={useUserPosts(userId)} label="Photos" empty={MSG.noImagesInChannel} showAuthor={false} />;
}

/** The owner's bookmarked posts, in the profile's Saved tab. */
export function SavedPosts() {
  return <PostGrid query={useSavedPosts()} label="Saved posts" empty="No saved posts yet." />;
}

/** A channel's image tiles (list-channel-posts). */
export function ChannelPosts({ channelId }: { channelId: number }) {
  return <PostGrid query={useChannelPosts(channelId)} label="Images" empty={MSG.noImagesInChannel} />;
}

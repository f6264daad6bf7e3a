/** The public face of posts: Post listings and tiles, for profiles, channels and the home page. Other features import posts only from here. */
export { ChannelPosts, SavedPosts, UserPosts } from './PostGrid';
export { PostTileCard } from './PostTileCard';
export { useChannelPosts } from './api';

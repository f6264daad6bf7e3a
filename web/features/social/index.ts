/** The public face of social: Follow, bell and share buttons, user tiles and searches, follower lists and profiles' figures. Other features import social only from here. */
export { BellButton } from './BellButton';
export { FollowButton } from './FollowButton';
export { FollowListModal } from './FollowListModal';
export { ShareButton } from './ShareButton';
export { UserTile, UserTileSkeleton } from './UserTile';
export { socialKeys, useFollowersToInvite, useProfile, useUserSearch } from './api';
export { useFollowerSearch } from './follower-search';
export { ProfileStats } from './ProfileStats';
export type { FollowListKind } from './ProfileStats';
export { parseUserId } from './user-id';

import type { PublicProfile } from '../../../common/api/social';
import { useSkin } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { MessageButton } from '../messages';
import { SubscribeButton } from '../subscriptions';
import { BellButton, FollowButton, ProfileStats, ShareButton } from '../social';
import styles from './ProfilePage.module.css';
import type { FollowListKind } from '../social';

/**
 * The public link of a profile. The address the visitor is on, not the session's profile_share_url:
 * that one comes from PUBLIC_URL, whose default (localhost and the port) is not reachable by others.
 */
function useProfileShareUrl(userId: number): string {
  const skin = useSkin();
  return `${window.location.origin}${skin.prefix}/u/${userId}`;
}

export function ProfileHeader({ profile, onOpenList }: { profile: PublicProfile; onOpenList: (kind: FollowListKind) => void }) {
  const shareUrl = useProfileShareUrl(profile.user_id);
  return (
    <header className={styles.header}>
      <Avatar name={profile.username} src={profile.avatar} size={112} />
      <div className={styles.identity}>
        <h1 className={styles.username}>@{profile.username}</h1>
        {profile.fullname && <p className={styles.fullname}>{profile.fullname}</p>}
        {profile.description && <p className={styles.description}>{profile.description}</p>}
        <ProfileStats profile={profile} onOpenList={onOpenList} />
      </div>
      <div className={styles.actions}>
        {/* Spec part 1 §2 Profile: self sees neither; a subscriber sees no Follow. */}
        {!profile.is_self && (profile.can_subscribe || profile.subscribed) && (
          <SubscribeButton creatorId={profile.user_id} creatorName={profile.username} subscribed={profile.subscribed} />
        )}
        {!profile.is_self && !profile.subscribed && <FollowButton userId={profile.user_id} following={profile.am_following} />}
        {!profile.is_self && profile.am_following && <BellButton userId={profile.user_id} on={profile.following_notify} />}
        {!profile.is_self && <MessageButton userId={profile.user_id} />}
        <ShareButton url={shareUrl} label="Share profile" />
      </div>
    </header>
  );
}

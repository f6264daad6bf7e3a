import type { PublicProfile } from '../../../common/api/social';
import { shortNumber } from '../../../common/rules/format';
import { StarRating } from '../../ui/StarRating';
import styles from './social.module.css';

export type FollowListKind = 'followers' | 'following';

interface ProfileStatsProps {
  profile: Pick<PublicProfile, 'followers' | 'following' | 'likes' | 'overall_rating'>;
  /** Makes Followers and Following open their lists. */
  onOpenList?: (kind: FollowListKind) => void;
  centered?: boolean;
}

/** Followers, following and likes in short form (1.2k), and the overall rating. */
export function ProfileStats({ profile, onOpenList, centered = false }: ProfileStatsProps) {
  const stat = (value: number, label: string, list?: FollowListKind) => {
    const content = (
      <>
        <strong className={styles.statValue}>{shortNumber(value)}</strong>{' '}
        <span className={styles.statLabel}>{label}</span>
      </>
    );
    return (
      <li key={label}>
        {list && onOpenList ? (
          <button type="button" className={styles.stat} onClick={() => onOpenList(list)}>
            {content}
          </button>
        ) : (
          <span className={styles.stat}>{content}</span>
        )}
      </li>
    );
  };
  return (
    <div className={`${styles.stats} ${centered ? styles.centered : ''}`}>
      <ul className={styles.statList} aria-label="Statistics">
        {stat(profile.followers, 'Followers', 'followers')}
        {stat(profile.following, 'Following', 'following')}
        {stat(profile.likes, 'Likes')}
      </ul>
      <StarRating value={profile.overall_rating} size={18} />
    </div>
  );
}

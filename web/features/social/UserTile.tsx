import { Link } from 'react-router';
import { shortNumber } from '../../../common/rules/format';
import { useSkinPath } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { HeartIcon } from '../../ui/icons';
import { StarRating } from '../../ui/StarRating';
import { useSession } from '../accounts';
import type { ListedUser } from './api';
import { FollowButton } from './FollowButton';
import styles from './UserTile.module.css';

/** A user in a grid (card) or a list (row): avatar, @username, likes, rating and Follow (spec part 1 §2 Other). */
export function UserTile({ user, variant = 'card' }: { user: ListedUser; variant?: 'card' | 'row' }) {
  const skinPath = useSkinPath();
  const { user: me } = useSession();
  const card = variant === 'card';
  const showFollow = me?.user_id !== user.user_id;
  return (
    <article className={`${styles.tile} ${styles[variant]}`} aria-label={user.username}>
      <Link to={skinPath(`/u/${user.user_id}`)} className={styles.link}>
        <Avatar name={user.username} src={user.avatar} size={card ? 72 : 40} />
        <span className={styles.names}>
          <span className={styles.username}>@{user.username}</span>
          {user.place && !card && <span className={styles.meta}>{user.place}</span>}
        </span>
      </Link>
      {(user.likes !== undefined || user.overall_rating !== undefined) && (
        <div className={styles.meta}>
          {user.likes !== undefined && (
            <span className={styles.likes} aria-label={`${shortNumber(user.likes)} likes`}>
              <HeartIcon size={14} />
              {shortNumber(user.likes)}
            </span>
          )}
          {user.overall_rating !== undefined && <StarRating value={user.overall_rating} size={12} />}
        </div>
      )}
      {showFollow && (
        <div className={styles.action}>
          <FollowButton userId={user.user_id} following={user.am_following} size="sm" block={card} />
        </div>
      )}
    </article>
  );
}

export function UserTileSkeleton({ variant = 'card' }: { variant?: 'card' | 'row' }) {
  return (
    <div className={`${styles.tile} ${styles[variant]} ${styles.skeleton}`} aria-hidden="true">
      <span className={styles.ghostAvatar} />
      <span className={styles.ghostLine} />
    </div>
  );
}

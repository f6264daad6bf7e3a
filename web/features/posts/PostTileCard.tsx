import type { PostTile } from '../../../common/api/posts';
import { relativeTime, shortNumber } from '../../../common/rules/format';
import { useSkinPath } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { HeartIcon, ImageIcon, LockIcon, PlayIcon } from '../../ui/icons';
import { Tile } from '../../ui/Tile';
import chip from '../streams/StreamTileCard.module.css';
import { formatCoins } from '../wallet/money';
import { formatDuration, postPath } from './post-rules';
import styles from './posts.module.css';

const AUDIENCE_CHIP = { public: null, followers: 'Followers', subscribers: 'Subscribers', private: 'Private' } as const;

/** A post in a listing: its picture (blurred by the server until bought), price, length, state and likes. */
export function PostTileCard({ post, showAuthor = true }: { post: PostTile; showAuthor?: boolean }) {
  const skinPath = useSkinPath();
  const paid = post.tip_viewer_min_amount > 0;
  const audience = AUDIENCE_CHIP[post.audience];
  return (
    <article aria-label={post.title} className={chip.card}>
      <Tile
        to={skinPath(postPath(post.post_id))}
        title={post.title}
        thumbnail={post.thumb_url}
        leading={showAuthor ? <Avatar name={post.username} src={post.avatar} size={32} /> : undefined}
        meta={showAuthor ? `${post.username} · ${relativeTime(post.entry_date)}` : relativeTime(post.entry_date)}
        overlay={
          <>
            {post.state === 'processing' && <span className={`${chip.chip} ${styles.stateChip}`}>Processing</span>}
            {post.state === 'failed' && <span className={`${chip.chip} ${styles.failedChip}`}>Failed</span>}
            {audience && <span className={chip.chip}>{audience}</span>}
            {paid && (
              <span className={`${chip.chip} ${post.has_paid ? '' : styles.lockChip}`} aria-label={post.has_paid ? 'Bought' : `Paid post, ${formatCoins(post.tip_viewer_min_amount)}`}>
                <LockIcon size={12} /> {post.has_paid ? 'Bought' : formatCoins(post.tip_viewer_min_amount)}
              </span>
            )}
            {post.kind === 'video' && post.duration !== null && (
              <span className={chip.chip} aria-label={`Video, ${formatDuration(post.duration)}`}>
                <PlayIcon size={12} /> {formatDuration(post.duration)}
              </span>
            )}
            {post.kind === 'image' && post.media_count > 1 && (
              <span className={chip.chip} aria-label={`${post.media_count} images`}>
                <ImageIcon size={12} /> {post.media_count}
              </span>
            )}
            <span className={chip.chip} aria-label={`${shortNumber(post.likes)} likes`}>
              <HeartIcon size={12} /> {shortNumber(post.likes)}
            </span>
          </>
        }
      />
    </article>
  );
}

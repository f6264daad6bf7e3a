import type { PostTile } from '../../../common/api/posts';
import { relativeTime, shortNumber } from '../../../common/rules/format';
import { fill, MSG } from '../../../common/messages';
import { useSkinPath } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { HeartIcon, ImageIcon, LockIcon, PlayIcon } from '../../ui/icons';
import { Tile, TileCard, TileChip } from '../../ui/Tile';
import { formatCoins } from '../../../common/rules/wallet-amounts';
import { formatDuration } from '../../../common/rules/format';
import { postPath } from './post-rules';
import styles from './posts.module.css';

const AUDIENCE_CHIP = { public: null, followers: 'Followers', subscribers: 'Subscribers', private: 'Private' } as const;

/** A post in a listing: its picture (blurred by the server until bought), price, length, state and likes. */
export function PostTileCard({ post, showAuthor = true }: { post: PostTile; showAuthor?: boolean }) {
  const skinPath = useSkinPath();
  const paid = post.tip_viewer_min_amount > 0;
  const audience = AUDIENCE_CHIP[post.audience];
  // A scheduled post (its owner's own listings) says when it appears rather than "now".
  const when = post.scheduled ? fill(MSG.postScheduledFor, { time: new Date(post.entry_date).toLocaleString() }) : relativeTime(post.entry_date);
  return (
    <TileCard label={post.title}>
      <Tile
        to={skinPath(postPath(post.post_id))}
        title={post.title}
        thumbnail={post.thumb_url}
        leading={showAuthor ? <Avatar name={post.username} src={post.avatar} size={32} /> : undefined}
        meta={showAuthor ? `${post.username} · ${when}` : when}
        overlay={
          <>
            {post.state === 'processing' && <TileChip className={styles.stateChip}>Processing</TileChip>}
            {post.state === 'failed' && <TileChip className={styles.failedChip}>Failed</TileChip>}
            {post.scheduled && <TileChip>Scheduled</TileChip>}
            {audience && <TileChip>{audience}</TileChip>}
            {paid && (
              <TileChip className={post.has_paid ? '' : styles.lockChip} aria-label={post.has_paid ? 'Bought' : `Paid post, ${formatCoins(post.tip_viewer_min_amount)}`}>
                <LockIcon size={12} /> {post.has_paid ? 'Bought' : formatCoins(post.tip_viewer_min_amount)}
              </TileChip>
            )}
            {post.kind === 'video' && post.duration !== null && (
              <TileChip aria-label={`Video, ${formatDuration(post.duration)}`}>
                <PlayIcon size={12} /> {formatDuration(post.duration)}
              </TileChip>
            )}
            {post.kind === 'image' && post.media_count > 1 && (
              <TileChip aria-label={`${post.media_count} images`}>
                <ImageIcon size={12} /> {post.media_count}
              </TileChip>
            )}
            <TileChip aria-label={`${shortNumber(post.likes)} likes`}>
              <HeartIcon size={12} /> {shortNumber(post.likes)}
            </TileChip>
          </>
        }
      />
    </TileCard>
  );
}

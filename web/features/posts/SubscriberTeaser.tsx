/**
 * A subscribers-only post seen by someone not subscribed (spec part 1 §2 Post view, as paid posts do):
 * the blurred tile the server made for this viewer, the creator, what the post holds and its counts,
 * then Subscribe (a guest is asked to log in). Subscribing looks the post up again, which opens it.
 */
import type { Post } from '../../../common/api/posts';
import { MSG } from '../../../common/messages';
import { LockedPostCard } from './LockedPostCard';
import { SubscribeButton } from '../subscriptions';
import { mediaCountLabel } from './post-rules';
import styles from './PostViewPage.module.css';

const count = (n: number, noun: string) => `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;

export function SubscriberTeaser({ post }: { post: Post }) {
  return (
    <LockedPostCard post={post} title={MSG.subscribersOnlyTitle}>
      <p className={styles.note}>{MSG.postSubscribersOnly}</p>
      <dl className={styles.facts}>
        <div>
          <dt>Content</dt>
          <dd>{mediaCountLabel(post.kind, post.media_count)}</dd>
        </div>
        <div>
          <dt>Reactions</dt>
          <dd>
            {count(post.likes, 'like')} · {count(post.comments, 'comment')}
          </dd>
        </div>
      </dl>
      <SubscribeButton creatorId={post.user_id} creatorName={post.user_name} subscribed={false} size="lg" />
    </LockedPostCard>
  );
}

/**
 * Where the media of a post the viewer cannot open would be: the blurred tile signed for them, and a card
 * with the lock, a title and the creator; what follows (facts, the way in) is the caller's.
 */
import type { ReactNode } from 'react';
import type { Post } from '../../../common/api/posts';
import { Avatar } from '../../ui/Avatar';
import { PayWallCard } from '../../ui/PayWallCard';
import styles from './PostViewPage.module.css';

export function LockedPostCard({ post, title, children }: { post: Post; title: string; children: ReactNode }) {
  return (
    <PayWallCard label={title} title={title} backdrop={post.thumb_url} shape="post">
      <div className={styles.creator}>
        <Avatar name={post.user_name} src={post.user_avatar} size={56} />
        <strong>@{post.user_name}</strong>
      </div>
      {children}
    </PayWallCard>
  );
}

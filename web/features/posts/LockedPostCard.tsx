/**
 * Where the media of a post the viewer cannot open would be: the blurred tile signed for them, and a card
 * with the lock, a title and the creator; what follows (facts, the way in) is the caller's.
 */
import type { ReactNode } from 'react';
import type { Post } from '../../../common/api/posts';
import { Avatar } from '../../ui/Avatar';
import { LockIcon } from '../../ui/icons';
import styles from './PostViewPage.module.css';

export function LockedPostCard({ post, title, children }: { post: Post; title: string; children: ReactNode }) {
  return (
    <div className={styles.purchase} role="region" aria-label={title}>
      {post.thumb_url && <img className={styles.purchaseBackdrop} src={post.thumb_url} alt="" />}
      <div className={styles.purchaseCard}>
        <span className={styles.lock}>
          <LockIcon size={24} />
        </span>
        <h2 className={styles.purchaseTitle}>{title}</h2>
        <div className={styles.creator}>
          <Avatar name={post.user_name} src={post.user_avatar} size={56} />
          <strong>@{post.user_name}</strong>
        </div>
        {children}
      </div>
    </div>
  );
}

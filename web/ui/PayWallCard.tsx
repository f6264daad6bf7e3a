import type { ReactNode } from 'react';
import { LockIcon } from './icons';
import styles from './PayWallCard.module.css';

interface PayWallCardProps {
  /** The region's accessible name. */
  label: string;
  title: ReactNode;
  /** The media's picture, shown blurred behind the card. */
  backdrop?: string | null;
  /** `player`: over a stream's player, in the video's shape; `post`: in place of a post's media. */
  shape: 'player' | 'post';
  /** What the card says and offers under its title (price, balance, the way in). */
  children: ReactNode;
}

/** Where media the viewer may not open yet would be: its picture blurred behind a card with a lock. */
export function PayWallCard({ label, title, backdrop, shape, children }: PayWallCardProps) {
  return (
    <div className={`${styles.wall} ${styles[shape]}`} role="region" aria-label={label}>
      {backdrop && <img className={styles.backdrop} src={backdrop} alt="" />}
      <div className={styles.card}>
        <span className={styles.icon}>
          <LockIcon size={shape === 'player' ? 28 : 24} />
        </span>
        <h2 className={styles.title}>{title}</h2>
        {children}
      </div>
    </div>
  );
}

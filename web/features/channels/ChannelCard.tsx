import { Link } from 'react-router';
import { TileArtwork } from '../../ui/Tile';
import styles from './ChannelCard.module.css';

/** A channel on the home page: a short banner with its artwork and its name over it. */
export function ChannelCard({ to, name, thumbnail, adult }: { to: string; name: string; thumbnail: string | null; adult: boolean }) {
  return (
    <Link to={to} className={styles.card}>
      <span className={styles.art}>
        <TileArtwork title={name} thumbnail={thumbnail} initial={false} />
      </span>
      <span className={styles.name}>{name}</span>
      {adult && <span className={styles.badge}>18+</span>}
    </Link>
  );
}

export function ChannelCardSkeleton() {
  return <div className={`${styles.card} ${styles.skeleton}`} aria-hidden="true" />;
}

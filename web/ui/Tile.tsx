import { Link } from 'react-router';
import type { ComponentProps, CSSProperties, ReactNode } from 'react';
import styles from './Tile.module.css';

interface TileProps {
  to: string;
  title: string;
  thumbnail?: string | null;
  /** Small text under the title (a rating, a viewer count...). */
  meta?: ReactNode;
  /** Top-left badge over the picture (LIVE, 18+...). */
  badge?: ReactNode;
  /** Chips along the bottom of the picture (viewers, likes, ratings). */
  overlay?: ReactNode;
  /** Left of the caption (a broadcaster's avatar). */
  leading?: ReactNode;
}

/** A thumbnail card for a channel, stream or post. */
export function Tile({ to, title, thumbnail, meta, badge, overlay, leading }: TileProps) {
  return (
    <Link to={to} className={styles.tile}>
      <div className={styles.media}>
        <TileArtwork title={title} thumbnail={thumbnail} />
        {badge && <span className={styles.badge}>{badge}</span>}
        {overlay && <span className={styles.overlay}>{overlay}</span>}
      </div>
      <div className={styles.footer}>
        {leading}
        <div className={styles.caption}>
          <span className={styles.title}>{title}</span>
          {meta && <span className={styles.meta}>{meta}</span>}
        </div>
      </div>
    </Link>
  );
}

/** A hue per title, so pictureless tiles side by side look different. */
function titleHue(title: string): number {
  let hash = 0;
  for (const char of title) hash = (hash * 31 + char.charCodeAt(0)) % 360;
  return hash;
}

/** The picture of a tile; without one, artwork drawn from the title (its colour and initial). */
export function TileArtwork({ title, thumbnail, initial = true }: { title: string; thumbnail?: string | null; initial?: boolean }) {
  if (thumbnail) return <img src={thumbnail} alt="" loading="lazy" className={styles.image} />;
  return (
    <div className={styles.placeholder} style={{ '--tile-hue': titleHue(title) } as CSSProperties} aria-hidden="true">
      {initial && <span className={styles.initial}>{title.slice(0, 1)}</span>}
    </div>
  );
}

export function TileSkeleton() {
  return (
    <div className={styles.tile} aria-hidden="true">
      <div className={`${styles.media} ${styles.shimmer}`} />
      <div className={styles.caption}>
        <span className={`${styles.line} ${styles.shimmer}`} />
        <span className={`${styles.line} ${styles.short} ${styles.shimmer}`} />
      </div>
    </div>
  );
}

/** A listing's tile as one named item (a stream, a post). */
export function TileCard({ label, children }: { label: string; children: ReactNode }) {
  return (
    <article aria-label={label} className={styles.card}>
      {children}
    </article>
  );
}

/** A small label over a tile's picture (its rating, price, length, likes). */
export function TileChip({ className, ...props }: ComponentProps<'span'>) {
  return <span className={className ? `${styles.chip} ${className}` : styles.chip} {...props} />;
}

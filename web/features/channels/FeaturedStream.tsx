import { Link } from 'react-router';
import type { StreamTile } from '../../../common/api/streams';
import { shortNumber } from '../../../common/rules/format';
import { shownLikes, shownTitle, shownViewers } from '../../../common/rules/stream-display';
import { useSkinPath } from '../../app/skin';
import { Avatar } from '../../ui/Avatar';
import { ButtonLink } from '../../ui/Button';
import { HeartIcon, UsersIcon } from '../../ui/icons';
import { TileArtwork } from '../../ui/Tile';
import styles from './FeaturedStream.module.css';

/** The first live stream, large, at the top of the home page. */
export function FeaturedStream({ stream }: { stream: StreamTile }) {
  const skinPath = useSkinPath();
  const to = skinPath(`/streams/stream-view?id=${stream.stream_id}`);
  return (
    <section className={styles.featured} aria-labelledby="featured-title">
      {/* The picture opens the stream too; keyboard and screen readers use Watch now. */}
      <Link to={to} className={styles.media} tabIndex={-1} aria-hidden="true">
        <TileArtwork title={shownTitle(stream.title)} thumbnail={stream.thumbnail_url} />
        <span className={styles.live}>LIVE</span>
      </Link>
      <div className={styles.info}>
        <p className={styles.kicker}>Live now</p>
        <h2 id="featured-title" className={styles.title}>
          {shownTitle(stream.title)}
        </h2>
        <p className={styles.by}>
          <Avatar name={stream.username} src={stream.avatar} size={28} />
          {stream.username}
        </p>
        <p className={styles.stats}>
          <span aria-label={`${shownViewers(stream.viewers)} viewers`}>
            <UsersIcon size={14} /> {shortNumber(shownViewers(stream.viewers))}
          </span>
          <span aria-label={`${shortNumber(shownLikes(stream))} likes`}>
            <HeartIcon size={14} /> {shortNumber(shownLikes(stream))}
          </span>
        </p>
        <ButtonLink to={to} size="lg">
          Watch now
        </ButtonLink>
      </div>
    </section>
  );
}

export function FeaturedStreamSkeleton() {
  return (
    <div className={styles.featured} aria-hidden="true">
      <div className={`${styles.media} ${styles.shimmer}`} />
      <div className={styles.info}>
        <span className={`${styles.line} ${styles.shimmer}`} />
        <span className={`${styles.line} ${styles.short} ${styles.shimmer}`} />
      </div>
    </div>
  );
}

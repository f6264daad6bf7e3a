import type { UseInfiniteQueryResult, InfiniteData } from '@tanstack/react-query';
import type { StreamTile } from '../../../common/api/streams';
import { failureMessage } from '../../api/field-errors';
import { EmptyState } from '../../ui/EmptyState';
import { VideoCallIcon } from '../../ui/icons';
import { StreamTileCard, StreamTileSkeleton } from './StreamTileCard';
import { useInfiniteScroll } from './use-infinite-scroll';
import styles from './StreamGrid.module.css';

type Pages = UseInfiniteQueryResult<InfiniteData<{ streams: StreamTile[] }>>;

/** Stream tiles of a listing, skeletons while a page loads, more pages as the end comes into view. */
export function StreamGrid({ query, empty, label }: { query: Pages; empty: string; label: string }) {
  const tiles = query.data?.pages.flatMap((p) => p.streams) ?? [];
  const sentinel = useInfiniteScroll(() => void query.fetchNextPage(), query.hasNextPage && !query.isFetchingNextPage);
  if (query.isError) return <p role="alert">{failureMessage(query.error)}</p>;
  if (query.isSuccess && tiles.length === 0) return <EmptyState icon={<VideoCallIcon />}>{empty}</EmptyState>;
  const skeletons = query.isPending ? 6 : query.isFetchingNextPage ? 3 : 0;
  return (
    <>
      <ul className={styles.grid} aria-label={label} aria-busy={query.isFetching}>
        {tiles.map((stream) => (
          <li key={stream.stream_id}>
            <StreamTileCard stream={stream} />
          </li>
        ))}
        {Array.from({ length: skeletons }, (_, i) => (
          <li key={`skeleton-${i}`}>
            <StreamTileSkeleton />
          </li>
        ))}
      </ul>
      <div ref={sentinel} aria-hidden="true" />
    </>
  );
}

/** Tiles of a paged listing (streams, posts): the grid, skeletons while a page loads, more pages as the end comes into view. */
import type { UseInfiniteQueryResult, InfiniteData } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { failureMessage } from '../api/field-errors';
import { EmptyState } from './EmptyState';
import { VideoCallIcon } from './icons';
import { TileSkeleton } from './Tile';
import { useInfiniteScroll } from './use-infinite-scroll';
import styles from './TileGrid.module.css';

export type Pages<T> = UseInfiniteQueryResult<InfiniteData<T>>;

interface TileGridProps<P, T> {
  query: Pages<P>;
  /** The tiles of one page. */
  itemsOf: (page: P) => T[];
  keyOf: (item: T) => number | string;
  render: (item: T) => ReactNode;
  empty: string;
  emptyIcon?: ReactNode;
  label: string;
}

/** Tiles of a paged listing (streams, posts), skeletons while a page loads, more pages as the end comes into view. */
export function TileGrid<P, T>({ query, itemsOf, keyOf, render, empty, emptyIcon = <VideoCallIcon />, label }: TileGridProps<P, T>) {
  const tiles = query.data?.pages.flatMap(itemsOf) ?? [];
  const sentinel = useInfiniteScroll(() => void query.fetchNextPage(), query.hasNextPage && !query.isFetchingNextPage);
  if (query.isError) return <p role="alert">{failureMessage(query.error)}</p>;
  if (query.isSuccess && tiles.length === 0) return <EmptyState icon={emptyIcon}>{empty}</EmptyState>;
  const skeletons = query.isPending ? 6 : query.isFetchingNextPage ? 3 : 0;
  return (
    <>
      <ul className={styles.grid} aria-label={label} aria-busy={query.isFetching}>
        {tiles.map((tile) => (
          <li key={keyOf(tile)}>{render(tile)}</li>
        ))}
        {Array.from({ length: skeletons }, (_, i) => (
          <li key={`skeleton-${i}`}>
            <TileSkeleton />
          </li>
        ))}
      </ul>
      <div ref={sentinel} aria-hidden="true" />
    </>
  );
}

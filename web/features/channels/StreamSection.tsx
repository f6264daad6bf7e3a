import type { UseInfiniteQueryResult, InfiniteData } from '@tanstack/react-query';
import type { StreamTile } from '../../../common/api/streams';
import { SkinLink } from '../../app/skin';
import { Section } from '../../ui/Page';
import { StreamTileCard, StreamTileSkeleton } from '../streams';
import grid from '../../ui/TileGrid.module.css';
import styles from './SearchPage.module.css';

/** The search page shows one row of streams; the rest are on /channel/search-all-stream. */
const SHOWN = 6;

export function StreamSection({ term, query }: { term: string; query: UseInfiniteQueryResult<InfiniteData<{ streams: StreamTile[]; total: number }>> }) {
  const first = query.data?.pages[0];
  return (
    <Section
      title="Streams"
      actions={
        first && (
          <span className={styles.count}>
            {first.total} found · <SkinLink to={`/channel/search-all-stream?search=${encodeURIComponent(term)}`}>See all</SkinLink>
          </span>
        )
      }
    >
      <ul className={grid.grid} aria-label="Streams" aria-busy={query.isFetching}>
        {query.isPending && Array.from({ length: 3 }, (_, i) => <li key={i}><StreamTileSkeleton /></li>)}
        {first?.streams.slice(0, SHOWN).map((s) => (
          <li key={s.stream_id}>
            <StreamTileCard stream={s} />
          </li>
        ))}
      </ul>
    </Section>
  );
}

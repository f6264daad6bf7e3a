import { MSG } from '../../../common/messages';
import { EmptyState } from '../../ui/EmptyState';
import { VideoCallIcon } from '../../ui/icons';
import { useAllStreams } from './api';
import { StreamTileCard, StreamTileSkeleton } from './StreamTileCard';
import styles from './StreamGrid.module.css';

/** The home page shows one row of what is on (list-streams, live first). */
const ROW = 3;

export function LiveNowRow() {
  const streams = useAllStreams();
  const first = streams.data?.pages[0]?.streams.slice(0, ROW);
  if (first?.length === 0) return <EmptyState icon={<VideoCallIcon />}>{MSG.noStreamsFound}</EmptyState>;
  return (
    <ul className={styles.row} aria-label="Live now" aria-busy={streams.isPending}>
      {streams.isPending && Array.from({ length: ROW }, (_, i) => <li key={i}><StreamTileSkeleton /></li>)}
      {first?.map((s) => (
        <li key={s.stream_id}>
          <StreamTileCard stream={s} />
        </li>
      ))}
    </ul>
  );
}

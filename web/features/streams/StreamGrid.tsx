import type { StreamTile } from '../../../common/api/streams';
import { TileGrid } from '../../ui/TileGrid';
import type { Pages } from '../../ui/TileGrid';
import { StreamTileCard } from './StreamTileCard';

const streamsOf = (page: { streams: StreamTile[] }) => page.streams;
const streamKey = (stream: StreamTile) => stream.stream_id;
const streamTile = (stream: StreamTile) => <StreamTileCard stream={stream} />;

/** Stream tiles of a listing. */
export function StreamGrid({ query, empty, label }: { query: Pages<{ streams: StreamTile[] }>; empty: string; label: string }) {
  return <TileGrid query={query} itemsOf={streamsOf} keyOf={streamKey} render={streamTile} empty={empty} label={label} />;
}

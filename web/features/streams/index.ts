/** The public face of streams: The player, stream listings and tiles, and reporting, for the features that show streams or their parts. Other features import streams only from here. */
export { Player } from './Player';
export { ReportModal } from './ReportModal';
export { StreamGrid } from './StreamGrid';
export { StreamTileCard, StreamTileSkeleton } from './StreamTileCard';
export { SavedStreams, UserStreams } from './UserStreams';
export { useAllStreams, useChannelStreams, useStreamSearch } from './api';
export { RATING_LABEL } from './rating-options';
export type { ComplaintType } from './stream-interactions';

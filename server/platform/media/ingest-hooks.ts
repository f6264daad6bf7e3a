/**
 * What the media layer asks of the streams module (platform imports no module: the module passes
 * these in). The ingest calls them in this order for one publish: canPublish (synchronous, from
 * memory, inside node-media-server's prePublish: a cheap filter) → startBroadcast (the lookup at
 * connect time, authoritative, may refuse: the session is closed) →
 * onLive (first segment written) → onThumbnail (repeatedly while live) → onEnded.
 */
export interface BroadcastStart {
  streamId: number;
  /** Continue this broadcast's playlist (a reconnect within the grace window), or start a new one. */
  broadcastId: string;
}

export interface IngestHooks {
  /** A quick check from memory, no lookup: could this be a key at all (and was it not just refused)? */
  canPublish(streamKey: string): boolean;
  /** The stream this publish belongs to. Throws (any error) to refuse the publish. */
  startBroadcast(streamKey: string): Promise<{ streamId: number }>;
  /** The first segment is on disk: the stream is live. `playlistKey` is a FileStore key. */
  onLive(event: { streamId: number; broadcastId: string; playlistKey: string; width: number | null; height: number | null }): Promise<void>;
  onThumbnail(event: { streamId: number; thumbnailKey: string }): Promise<void>;
  /** The playlist is closed (#EXT-X-ENDLIST): it is now the replay. */
  onEnded(event: { streamId: number; broadcastId: string; playlistKey: string; lengthSeconds: number }): Promise<void>;
}

/** What the HLS route asks: where a stream's playlist lives now (null: nothing to play). */
export type PlaylistLocator = (streamId: number) => Promise<string | null>;

/**
 * What the media layer asks of the streams module (platform imports no module: the module passes
 * these in). The ingest calls them in this order for one publish: canPublish (synchronous, from
 * memory, inside node-media-server's prePublish: a cheap filter) → startBroadcast (the lookup at
 * connect time, authoritative, may refuse: the session is closed) →
 * onLive (first segment written) → onThumbnail (repeatedly while live) → onEnded.
 */
export interface BroadcastStart {
  streamId: number;
  /**
   * Set when the stream is still live under a lease (its encoder came back to this instance after a
   * restart or a deploy of another): continue this broadcast's playlist. Its lease is now this instance's.
   */
  continues?: string;
}

/** How often an ingesting instance renews its leases, and how long a lease lives without renewal. */
export const LEASE_RENEW_MS = 5_000;
export const LEASE_TTL_MS = 15_000;
/** How often each media instance ends the broadcasts whose lease ran out (worst case: TTL + this ≤ 30 s). */
export const LEASE_SWEEP_MS = 5_000;

/** Closes a broadcast's playlist (this node's copy, else the store's) into its replay: its length in seconds, or null when there is none. */
export type PlaylistCloser = (playlistKey: string) => Promise<number | null>;

export interface IngestCallbacks {
  /** A quick check from memory, no lookup: could this be a key at all (and was it not just refused)? */
  canPublish(streamKey: string): boolean;
  /** The stream this publish belongs to. Throws (any error) to refuse the publish. */
  startBroadcast(streamKey: string): Promise<BroadcastStart>;
  /** The first segment is on disk: the stream is live. `playlistKey` is a FileStore key. */
  onLive(event: { streamId: number; broadcastId: string; playlistKey: string; width: number | null; height: number | null }): Promise<void>;
  onThumbnail(event: { streamId: number; thumbnailKey: string }): Promise<void>;
  /**
   * The playlist is closed (#EXT-X-ENDLIST): it is now the replay. Not ended when another instance
   * holds the stream's lease (its encoder moved there).
   */
  onEnded(event: { streamId: number; broadcastId: string; playlistKey: string; lengthSeconds: number; reason?: 'disk-full' }): Promise<void>;
  /** Renews this instance's leases: the stream ids it still holds (another instance may have taken one over). */
  renewLeases(streamIds: number[]): Promise<Set<number>>;
  /** A graceful stop: nobody ingests these now; their encoders may come back to any instance for `graceMs`. */
  releaseLeases(streamIds: number[], graceMs: number): Promise<void>;
  /** Ends every broadcast whose lease ran out (each once, whichever instance sweeps first): how many. */
  endExpiredBroadcasts(closePlaylist: PlaylistCloser): Promise<number>;
  /** True while a lease keeps the stream live (held, or in grace): boot cleanup leaves its playlist open. */
  isLeased(streamId: number): Promise<boolean>;
}

/** What the HLS route asks: where a stream's playlist lives now (null: nothing to play). */
export type PlaylistLocator = (streamId: number) => Promise<string | null>;

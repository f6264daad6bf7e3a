/**
 * The lease callbacks of an ingest that runs alone, without the streams module (the ingest's own tests,
 * benchmarks): this process holds every broadcast it renews, and no other instance exists to hand
 * one to or to take one over from.
 */
import type { IngestCallbacks } from '../platform/media/ingest-callbacks';

export type LeaseCallbacks = Pick<IngestCallbacks, 'renewLeases' | 'releaseLeases' | 'endExpiredBroadcasts' | 'isLeased'>;

export function loneIngestLeases(): LeaseCallbacks & { released: number[] } {
  const released: number[] = [];
  return {
    released,
    renewLeases: async (streamIds) => new Set(streamIds),
    releaseLeases: async (streamIds) => void released.push(...streamIds),
    endExpiredBroadcasts: async () => 0,
    isLeased: async () => false,
  };
}

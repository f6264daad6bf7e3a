/**
 * The lease hooks of an ingest that runs alone, without the streams module (the ingest's own tests,
 * benchmarks): this process holds every broadcast it renews, and no other instance exists to hand
 * one to or to take one over from.
 */
import type { IngestHooks } from '../platform/media/ingest-hooks';

export type LeaseHooks = Pick<IngestHooks, 'renewLeases' | 'releaseLeases' | 'endExpiredBroadcasts' | 'isLeased'>;

export function loneIngestLeases(): LeaseHooks & { released: number[] } {
  const released: number[] = [];
  return {
    released,
    renewLeases: async (streamIds) => new Set(streamIds),
    releaseLeases: async (streamIds) => void released.push(...streamIds),
    endExpiredBroadcasts: async () => 0,
    isLeased: async () => false,
  };
}

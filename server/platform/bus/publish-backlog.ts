/**
 * What the bus could not publish while it was down, oldest first, bounded in bytes: when full, the
 * oldest go first and are counted (decision 0044). The bound is a quarter of the realtime gateway's per-socket
 * buffer limit (1 MiB), so a socket that hears the backlogs of up to four instances at once is not taken
 * for a client that does not read.
 */
export const BACKLOG_MAX_BYTES = 256 * 1024;

export interface Pending {
  channel: string;
  payload: string;
}

export function createPublishBacklog(maxBytes = BACKLOG_MAX_BYTES) {
  const pending: Pending[] = [];
  let bytes = 0;
  let dropped = 0;
  return {
    add(item: Pending) {
      pending.push(item);
      bytes += item.payload.length;
      while (bytes > maxBytes && pending.length > 0) {
        bytes -= pending.shift()!.payload.length;
        dropped += 1;
      }
    },
    /** The oldest message, left in place until `done` (a failed publish keeps it first). */
    first: (): Pending | undefined => pending[0],
    done() {
      const item = pending.shift();
      if (item) bytes -= item.payload.length;
    },
    size: () => pending.length,
    /** Messages dropped since the last call. */
    takeDropped() {
      const count = dropped;
      dropped = 0;
      return count;
    },
  };
}

/**
 * Group commit for calls that each would be one statement, and coalesced reads: concurrent calls go to
 * the database together, one round trip for many requests (decision 0078). A call that finds fewer than `maxRunning` batches running starts one once the event loop
 * has taken in what else arrived with it (a lone call waits for nothing else); calls that arrive while
 * batches run wait and go together in the next. Calls with the same `key` (when one is given) never
 * share a batch, so a set-based statement may treat its rows as independent.
 */
export interface BatcherOptions<T, R> {
  /**
   * Answers one result per item, in order; a throw rejects every item of the batch. `slot` (0 to
   * maxRunning − 1) is this batch's own among those running now: no two running batches share one.
   */
  run(items: T[], slot: number): Promise<R[]>;
  maxItems: number;
  maxRunning: number;
  key?(item: T): string | number;
}

/**
 * For reads by key (a page of people, a post page): two statements running at once, each for up to 32
 * requests, measured best on the 2-core machine (decision 0078) — a wider window leaves more requests
 * alone in their round trip, a narrower one idles the database between statements.
 */
export const COALESCED_READS = { maxItems: 32, maxRunning: 2 } as const;

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export function createBatcher<T, R>(options: BatcherOptions<T, R>) {
  const waiting: Array<Waiting<T, R>> = [];
  const freeSlots = Array.from({ length: options.maxRunning }, (_, slot) => slot);
  let running = 0;
  let scheduled = false;

  /** The next batch: the longest-waiting calls, at most one per key, the others left in their order. */
  function takeBatch(): Array<Waiting<T, R>> {
    const batch: Array<Waiting<T, R>> = [];
    const keys = new Set<string | number>();
    const left: Array<Waiting<T, R>> = [];
    for (const call of waiting) {
      const key = options.key?.(call.item);
      if (batch.length < options.maxItems && (key === undefined || !keys.has(key))) {
        if (key !== undefined) keys.add(key);
        batch.push(call);
      } else {
        left.push(call);
      }
    }
    waiting.splice(0, waiting.length, ...left);
    return batch;
  }

  function schedule() {
    if (scheduled || running >= options.maxRunning) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }

  function pump() {
    while (running < options.maxRunning && waiting.length > 0) {
      const batch = takeBatch();
      const slot = freeSlots.shift()!;
      running += 1;
      options.run(batch.map((call) => call.item), slot).then(
        (results) => {
          if (results.length !== batch.length) throw new Error(`a batch of ${batch.length} answered ${results.length} results`);
          batch.forEach((call, i) => call.resolve(results[i]!));
        },
      ).catch((error: unknown) => {
        for (const call of batch) call.reject(error);
      }).finally(() => {
        freeSlots.push(slot);
        running -= 1;
        schedule();
      });
    }
  }

  return {
    submit(item: T): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        schedule();
      });
    },
  };
}

export type Batcher<T, R> = ReturnType<typeof createBatcher<T, R>>;

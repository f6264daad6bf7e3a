/**
 * Runs of a recount per key, at most one at a time: a call that arrives while its key's run is going
 * waits for the next run, which starts when that one ends and answers every call that arrived meanwhile.
 * For work that reads the current state whole (a stream's goals against its tipped total): a burst of
 * triggers costs two runs, not one each, and every caller returns after a run that began after its call.
 */
export function coalescedRuns<K>(run: (key: K) => Promise<void>): (key: K) => Promise<void> {
  const running = new Map<K, Promise<void>>();
  const next = new Map<K, Promise<void>>();

  function start(key: K): Promise<void> {
    const current = run(key).finally(() => {
      if (running.get(key) === current) running.delete(key);
    });
    running.set(key, current);
    return current;
  }

  return (key) => {
    const waiting = next.get(key);
    if (waiting) return waiting;
    const current = running.get(key);
    if (!current) return start(key);
    const later = current.then(noop, noop).then(() => {
      next.delete(key);
      return start(key);
    });
    next.set(key, later);
    return later;
  };
}

const noop = () => undefined;

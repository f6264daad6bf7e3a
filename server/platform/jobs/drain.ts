/**
 * A queue worker for one instance: `run()` takes steps until a step says there is no more work; a
 * `wake()` while it runs makes it look once more before stopping, so work written meanwhile is not left
 * for the next tick. The periodic job and the wake share the one loop (never two at once here; other
 * instances are kept apart by the queue's row locks).
 */
export interface Drain {
  run(): Promise<void>;
  wake(): void;
}

export function createDrain(step: () => Promise<boolean>, onError: (error: unknown) => void): Drain {
  let running: Promise<void> | null = null;
  let again = false;

  async function loop() {
    do {
      again = false;
      while (await step()) {
        // another batch
      }
    } while (again);
  }

  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = loop().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    run,
    wake: () => void run().catch(onError),
  };
}

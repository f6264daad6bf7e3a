/**
 * Asks until the answer satisfies `done` or the time is up, and answers the last answer (for state written
 * shortly after a change): the caller's assertion on it says what was expected. `intervalMs` between asks.
 */
export async function eventually<T>(ask: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000, intervalMs = 100): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await ask();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The Idempotency-Key of a paying call (common/api/descriptor.ts IDEMPOTENCY_HEADER): one per attempt, the same on a retry. */
/** A random key per send; crypto.randomUUID needs a secure context, so plain http falls back to random bytes. */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

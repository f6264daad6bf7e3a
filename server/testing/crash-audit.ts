/** The crash test's audit (scripts/crash-test.ts): the client's record of tips against the books, a pure function so it can be tested to fail. */

/** A tip answered 200: what was asked and the transfer the server named. */
export interface AcknowledgedTip {
  attempt: { amount: number; tipper: { userId: number } };
  transferId: number;
}

/** A tip transfer as read from the books, with how many entries it has. */
export interface TipTransferRow {
  id: number | string;
  idempotency_key: string;
  amount: number | string;
  from_user_id: number | string;
  entries: number;
}

/**
 * The client's record against the books (ledger keys `tip:<user>:<key>`): every acknowledged tip is
 * there once, with its transfer, amount and payer; a refused tip moved nothing; a tip transfer has at
 * most three entries (payer, recipient, fees); every tip transfer was acknowledged (or its key answered
 * a throttled retry); no key moved money twice. Answers one line per problem.
 */
export function auditAcknowledgedTips(record: {
  acknowledged: ReadonlyMap<string, AcknowledgedTip>;
  refused: Iterable<string>;
  /** Keys whose retry was throttled: their first request's outcome was never seen. */
  throttledRetries: ReadonlySet<string>;
  tipTransfers: readonly TipTransferRow[];
  /** Idempotency keys with more than one transfer, across every kind (the database's own count). */
  keysMovedTwice: number;
}): string[] {
  const problems: string[] = [];
  const byKey = new Map<string, TipTransferRow[]>();
  for (const row of record.tipTransfers) byKey.set(row.idempotency_key, [...(byKey.get(row.idempotency_key) ?? []), row]);
  for (const [k, { attempt, transferId }] of record.acknowledged) {
    const rows = byKey.get(k) ?? [];
    const row = rows.find((r) => Number(r.id) === transferId) ?? rows[0];
    if (!row) problems.push(`acknowledged tip ${k} (transfer ${transferId}) is missing`);
    else if (Number(row.id) !== transferId || Number(row.amount) !== attempt.amount || Number(row.from_user_id) !== attempt.tipper.userId) {
      problems.push(`acknowledged tip ${k}: transfer ${row.id} of ${row.amount} does not match ${transferId} of ${attempt.amount}`);
    }
  }
  for (const k of record.refused) if (byKey.has(k)) problems.push(`refused tip ${k} moved money`);
  for (const row of record.tipTransfers) {
    if (row.entries > 3) problems.push(`transfer ${row.id} has ${row.entries} entries`);
    if (!record.acknowledged.has(row.idempotency_key) && !record.throttledRetries.has(row.idempotency_key)) problems.push(`transfer ${row.id} (${row.idempotency_key}) was never acknowledged`);
  }
  // The unique index makes this impossible; the audit does not take it on trust.
  for (const [k, rows] of byKey) if (rows.length > 1) problems.push(`tip key ${k} moved money ${rows.length} times (transfers ${rows.map((r) => r.id).join(', ')})`);
  if (record.keysMovedTwice > 0) problems.push(`${record.keysMovedTwice} idempotency keys moved money twice`);
  return problems;
}

/**
 * The crash test's audit of the client's record against the books (scripts/crash-test.ts) must be able
 * to fail: each case below breaks the books or the record in one way and expects exactly that problem.
 */
import { describe, expect, it } from 'vitest';
import { auditAcknowledgedTips, type AcknowledgedTip, type TipTransferRow } from './crash-audit';

const ack = (userId: number, amount: number, transferId: number): AcknowledgedTip => ({ attempt: { amount, tipper: { userId } }, transferId });
/** A tip transfer as PostgreSQL answers it (bigint columns may come back as text). */
const row = (id: number, key: string, amount: number, fromUserId: number, entries = 3): TipTransferRow =>
  ({ id: String(id), idempotency_key: key, amount: String(amount), from_user_id: String(fromUserId), entries });

/** Sound: two acknowledged tips, each in the books once; a refused tip that moved nothing. */
const sound = () => ({
  acknowledged: new Map([['tip:7:c0-1', ack(7, 20, 101)], ['tip:8:c1-1', ack(8, 5, 102)]]),
  refused: ['tip:9:c2-1'] as Iterable<string>,
  throttledRetries: new Set<string>(),
  tipTransfers: [row(101, 'tip:7:c0-1', 20, 7), row(102, 'tip:8:c1-1', 5, 8, 2)],
  keysMovedTwice: 0,
});

describe('the crash test audit', () => {
  it('finds nothing when every acknowledged tip is in the books once and nothing else moved', () => {
    expect(auditAcknowledgedTips(sound())).toEqual([]);
  });

  it('reports an acknowledged tip missing from the books', () => {
    const record = { ...sound(), tipTransfers: [row(102, 'tip:8:c1-1', 5, 8)] };
    expect(auditAcknowledgedTips(record)).toEqual(['acknowledged tip tip:7:c0-1 (transfer 101) is missing']);
  });

  it('reports an acknowledged tip booked with another amount', () => {
    const record = { ...sound(), tipTransfers: [row(101, 'tip:7:c0-1', 200, 7), row(102, 'tip:8:c1-1', 5, 8)] };
    expect(auditAcknowledgedTips(record)).toEqual(['acknowledged tip tip:7:c0-1: transfer 101 of 200 does not match 101 of 20']);
  });

  it('reports an acknowledged tip whose key is booked under another transfer', () => {
    const record = { ...sound(), tipTransfers: [row(150, 'tip:7:c0-1', 20, 7), row(102, 'tip:8:c1-1', 5, 8)] };
    expect(auditAcknowledgedTips(record)).toEqual(['acknowledged tip tip:7:c0-1: transfer 150 of 20 does not match 101 of 20']);
  });

  it('reports an acknowledged tip booked against another payer', () => {
    const record = { ...sound(), tipTransfers: [row(101, 'tip:7:c0-1', 20, 9), row(102, 'tip:8:c1-1', 5, 8)] };
    expect(auditAcknowledgedTips(record)).toHaveLength(1);
  });

  it('reports a transfer that was never acknowledged', () => {
    const record = { ...sound(), tipTransfers: [...sound().tipTransfers, row(103, 'tip:7:c0-2', 10, 7)] };
    expect(auditAcknowledgedTips(record)).toEqual(['transfer 103 (tip:7:c0-2) was never acknowledged']);
  });

  it('accepts an unacknowledged transfer whose key answered a throttled retry, and only that key', () => {
    const extra = row(103, 'tip:7:c0-2', 10, 7);
    expect(auditAcknowledgedTips({ ...sound(), tipTransfers: [...sound().tipTransfers, extra], throttledRetries: new Set(['tip:7:c0-2']) })).toEqual([]);
    expect(auditAcknowledgedTips({ ...sound(), tipTransfers: [...sound().tipTransfers, extra], throttledRetries: new Set(['tip:7:c0-3']) }))
      .toEqual(['transfer 103 (tip:7:c0-2) was never acknowledged']);
  });

  it('reports a refused tip that moved money', () => {
    const record = { ...sound(), tipTransfers: [...sound().tipTransfers, row(104, 'tip:9:c2-1', 100, 9)] };
    expect(auditAcknowledgedTips(record)).toEqual(['refused tip tip:9:c2-1 moved money', 'transfer 104 (tip:9:c2-1) was never acknowledged']);
  });

  it('reports a tip transfer with more legs than payer, recipient and fees', () => {
    const record = { ...sound(), tipTransfers: [row(101, 'tip:7:c0-1', 20, 7, 4), row(102, 'tip:8:c1-1', 5, 8)] };
    expect(auditAcknowledgedTips(record)).toEqual(['transfer 101 has 4 entries']);
  });

  it('reports a key that moved money twice, though the acknowledged transfer is among them', () => {
    const record = { ...sound(), tipTransfers: [...sound().tipTransfers, row(105, 'tip:7:c0-1', 20, 7)] };
    expect(auditAcknowledgedTips(record)).toEqual(['tip key tip:7:c0-1 moved money 2 times (transfers 101, 105)']);
    // In whichever order the books answer the rows.
    expect(auditAcknowledgedTips({ ...record, tipTransfers: [...record.tipTransfers].reverse() }))
      .toEqual(['tip key tip:7:c0-1 moved money 2 times (transfers 105, 101)']);
  });

  it('reports keys the database counts as having moved money twice, in any kind of transfer', () => {
    expect(auditAcknowledgedTips({ ...sound(), keysMovedTwice: 2 })).toEqual(['2 idempotency keys moved money twice']);
  });
});

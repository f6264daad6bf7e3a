import { describe, expect, it } from 'vitest';
import { RECEIVING_SHARDS, receivingShardsBySlot } from './service';

describe('receiving shards by batch slot', () => {
  it('never gives two slots the same shard, and goes round every shard', () => {
    const shards = receivingShardsBySlot(2);
    const bySlot = [0, 1].map((slot) => Array.from({ length: RECEIVING_SHARDS }, () => shards.next(slot)));
    expect(bySlot[0]).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 0, 2, 4, 6, 8, 10, 12, 14]);
    expect(bySlot[1]).toEqual([1, 3, 5, 7, 9, 11, 13, 15, 1, 3, 5, 7, 9, 11, 13, 15]);
  });

  it('keeps one slot on all shards in turn', () => {
    const shards = receivingShardsBySlot(1);
    expect(Array.from({ length: RECEIVING_SHARDS + 1 }, () => shards.next(0))).toEqual([...Array.from({ length: RECEIVING_SHARDS }, (_, i) => i), 0]);
  });
});

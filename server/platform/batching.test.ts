import { describe, expect, it } from 'vitest';
import { createBatcher } from './batching';

/** A batch runner whose batches the test ends by hand. */
function heldRunner() {
  const batches: Array<{ items: string[]; slot: number; finish(results?: string[]): void; fail(error: Error): void }> = [];
  const run = (items: string[], slot: number) => new Promise<string[]>((resolve, reject) => {
    batches.push({ items, slot, finish: (results) => resolve(results ?? items.map((i) => `done:${i}`)), fail: reject });
  });
  return { batches, run };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Lets a finished batch's settling and the next batch's start happen. */
const turns = async () => {
  await turn();
  await turn();
};
const keyOf = (item: string) => item.split(':')[0]!;

describe('batcher', () => {
  it('sends the calls of one turn together, and those that arrive while it runs in the next batch', async () => {
    const { batches, run } = heldRunner();
    const batcher = createBatcher({ run, maxItems: 10, maxRunning: 1, key: keyOf });
    const first = ['a', 'b', 'c'].map((item) => batcher.submit(item));
    await turn();
    expect(batches.map((b) => b.items)).toEqual([['a', 'b', 'c']]);

    const second = ['d', 'e'].map((item) => batcher.submit(item));
    await turn();
    expect(batches).toHaveLength(1);
    batches[0]!.finish();
    expect(await Promise.all(first)).toEqual(['done:a', 'done:b', 'done:c']);
    await turns();
    expect(batches.map((b) => b.items)).toEqual([['a', 'b', 'c'], ['d', 'e']]);
    batches[1]!.finish();
    expect(await Promise.all(second)).toEqual(['done:d', 'done:e']);
  });

  it('never puts two calls of one key in a batch, and keeps to the size limit', async () => {
    const { batches, run } = heldRunner();
    const batcher = createBatcher({ run, maxItems: 2, maxRunning: 1, key: keyOf });
    const all = ['u1:x', 'u1:y', 'u2:x', 'u3:x'].map((item) => batcher.submit(item));
    await turn();
    expect(batches.map((b) => b.items)).toEqual([['u1:x', 'u2:x']]);
    batches[0]!.finish();
    await turns();
    expect(batches[1]!.items).toEqual(['u1:y', 'u3:x']);
    batches[1]!.finish();
    expect(await Promise.all(all)).toEqual(['done:u1:x', 'done:u1:y', 'done:u2:x', 'done:u3:x']);
  });

  it('without a key puts any calls together, the same item twice too, up to the size limit', async () => {
    const { batches, run } = heldRunner();
    const batcher = createBatcher({ run, maxItems: 3, maxRunning: 1 });
    const all = ['a', 'a', 'b', 'c'].map((item) => batcher.submit(item));
    await turn();
    expect(batches.map((b) => b.items)).toEqual([['a', 'a', 'b']]);
    batches[0]!.finish();
    await turns();
    expect(batches.map((b) => b.items)).toEqual([['a', 'a', 'b'], ['c']]);
    batches[1]!.finish();
    expect(await Promise.all(all)).toEqual(['done:a', 'done:a', 'done:b', 'done:c']);
  });

  it('runs up to maxRunning batches at once, each in a slot no other running batch holds', async () => {
    const { batches, run } = heldRunner();
    const batcher = createBatcher({ run, maxItems: 10, maxRunning: 2, key: keyOf });
    void batcher.submit('a');
    await turn();
    void batcher.submit('b');
    await turn();
    void batcher.submit('c');
    await turn();
    expect(batches.map((b) => [b.items, b.slot])).toEqual([[['a'], 0], [['b'], 1]]);
    batches[1]!.finish();
    await turns();
    expect(batches.map((b) => [b.items, b.slot])).toEqual([[['a'], 0], [['b'], 1], [['c'], 1]]);
    batches[0]!.finish();
    void batcher.submit('d');
    await turns();
    expect(batches[3]).toMatchObject({ items: ['d'], slot: 0 });
  });

  it('rejects every call of a batch that failed, and of one that answered the wrong number of results', async () => {
    const { batches, run } = heldRunner();
    const batcher = createBatcher({ run, maxItems: 10, maxRunning: 1, key: keyOf });
    const failed = ['a', 'b'].map((item) => batcher.submit(item));
    await turn();
    batches[0]!.fail(new Error('statement failed'));
    for (const call of failed) await expect(call).rejects.toThrow('statement failed');

    const short = ['c', 'd'].map((item) => batcher.submit(item));
    await turn();
    batches[1]!.finish(['only one']);
    for (const call of short) await expect(call).rejects.toThrow('a batch of 2 answered 1 results');
  });
});

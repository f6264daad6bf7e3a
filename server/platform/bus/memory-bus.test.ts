import { describe, expect, it } from 'vitest';
import { createMemoryBus } from './memory-bus';

describe('memory bus', () => {
  it('delivers copies to every subscriber of a channel and stops after unsubscribe', async () => {
    const bus = createMemoryBus();
    const seenA: unknown[] = [];
    const seenB: unknown[] = [];
    const offA = await bus.subscribe('stream:1', (m) => seenA.push(m));
    await bus.subscribe('stream:1', (m) => seenB.push(m));
    await bus.subscribe('stream:2', () => seenB.push('wrong channel'));
    const message = { type: 'LIKE', likes: 1 };
    await bus.publish('stream:1', message);
    await offA();
    await bus.publish('stream:1', { type: 'COMMENT' });
    expect(seenA).toEqual([{ type: 'LIKE', likes: 1 }]);
    expect(seenA[0]).not.toBe(message);
    expect(seenB).toEqual([{ type: 'LIKE', likes: 1 }, { type: 'COMMENT' }]);
  });
});

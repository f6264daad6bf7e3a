import { describe, expect, it } from 'vitest';
import { sampleComment } from '../../../common/testing/realtime-samples';
import { eventually } from '../../testing/eventually';
import { createMemoryBus } from '../bus/memory-bus';
import { createFanout } from './fanout';

describe('the fan-out', () => {
  it('delivers every message to every member in publishing order, across several turns of the event loop', async () => {
    const fanout = createFanout(createMemoryBus());
    const received: string[][] = Array.from({ length: 2500 }, () => []);
    await Promise.all(received.map((inbox, i) => fanout.join('stream:1', (frame) => inbox.push(`${i}:${(JSON.parse(frame.toString()) as { message: { text: string } }).message.text}`))));
    for (const text of ['one', 'two', 'three']) await fanout.publish('stream:1', sampleComment(text));
    await eventually(async () => received, (inboxes) => inboxes.every((inbox) => inbox.length >= 3));
    expect(received.every((inbox, i) => inbox.join() === [`${i}:one`, `${i}:two`, `${i}:three`].join())).toBe(true);
  });

  it('stops delivering to a member that left while a message was on its way', async () => {
    const fanout = createFanout(createMemoryBus());
    const late: Buffer[] = [];
    const leaver = (frame: Buffer) => late.push(frame);
    for (let i = 0; i < 1500; i++) await fanout.join('stream:2', () => {});
    await fanout.join('stream:2', leaver);
    // Joined after the leaver: once it has the message, the leaver's turn has passed.
    const after: Buffer[] = [];
    await fanout.join('stream:2', (frame) => after.push(frame));
    await fanout.publish('stream:2', sampleComment('hi'));
    // The first slice reached the first thousand members; the leaver was in the second.
    await fanout.leave('stream:2', leaver);
    await eventually(async () => after.length, (n) => n > 0);
    expect(after).toHaveLength(1);
    expect(late).toEqual([]);
  });
});

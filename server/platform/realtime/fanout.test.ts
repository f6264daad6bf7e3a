import { describe, expect, it } from 'vitest';
import { BATCH_MAX_MESSAGES, serverFrame } from '../../../common/realtime';
import { sampleComment } from '../../../common/testing/realtime-samples';
import { eventually } from '../../testing/eventually';
import { createMemoryBus } from '../bus/memory-bus';
import { createFanout } from './fanout';

/** The lines of a frame as a member reads them: one for `message`, each in order for `messages`. */
function linesOf(frame: Buffer): string[] {
  const parsed = serverFrame.parse(JSON.parse(frame.toString()));
  if (parsed.op === 'message') return [(parsed.message as { text: string }).text];
  if (parsed.op === 'messages') return parsed.messages.map((m) => (m as { text: string }).text);
  throw new Error(`unexpected frame ${parsed.op}`);
}

/** A long window: what arrives after a frame surely waits for the next one, however slow the machine. */
const LONG_WINDOW = { windowMs: 500 };

describe('the fan-out', () => {
  it('sends a line on a quiet channel at once, as a message frame of its own', async () => {
    const fanout = createFanout(createMemoryBus(), LONG_WINDOW);
    const frames: Buffer[] = [];
    await fanout.join('stream:1', (frame) => frames.push(frame));
    await fanout.publish('stream:1', sampleComment('alone'));
    // No timer ran in between: the line was written within the publish.
    expect(frames.map((f) => JSON.parse(f.toString()).op)).toEqual(['message']);
    expect(linesOf(frames[0]!)).toEqual(['alone']);
  });

  it('gathers the lines of a burst into one frame, in order', async () => {
    const fanout = createFanout(createMemoryBus(), LONG_WINDOW);
    const frames: Buffer[] = [];
    await fanout.join('stream:1', (frame) => frames.push(frame));
    const texts = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    for (const text of texts) await fanout.publish('stream:1', sampleComment(text));
    await eventually(async () => frames.flatMap(linesOf).length, (n) => n >= texts.length);
    // Usually two frames: the first line alone, then the rest; a machine that stalls past the window splits the rest.
    expect(JSON.parse(frames[1]!.toString()).op).toBe('messages');
    expect(frames.length).toBeLessThan(texts.length / 2);
    expect(frames.flatMap(linesOf)).toEqual(texts);
  });

  it('delivers every line to every member once and in order, over several frames and turns of the event loop', async () => {
    const fanout = createFanout(createMemoryBus(), { windowMs: 5 });
    const inboxes: string[][] = Array.from({ length: 2500 }, () => []);
    await Promise.all(inboxes.map((inbox) => fanout.join('stream:1', (frame) => inbox.push(...linesOf(frame)))));
    // More than one frame can carry: the rest follows in further frames.
    const texts = Array.from({ length: BATCH_MAX_MESSAGES + 150 }, (_, i) => `line ${i}`);
    for (const text of texts) await fanout.publish('stream:1', sampleComment(text));
    await eventually(async () => inboxes, (all) => all.every((inbox) => inbox.length >= texts.length), 30_000);
    expect(inboxes.every((inbox) => inbox.join('|') === texts.join('|'))).toBe(true);
  });

  it('stops delivering to a member that left while a frame was on its way', async () => {
    const fanout = createFanout(createMemoryBus());
    const late: Buffer[] = [];
    const leaver = (frame: Buffer) => late.push(frame);
    for (let i = 0; i < 1500; i++) await fanout.join('stream:2', () => {});
    await fanout.join('stream:2', leaver);
    // Joined after the leaver: once it has the line, the leaver's turn has passed.
    const after: Buffer[] = [];
    await fanout.join('stream:2', (frame) => after.push(frame));
    await fanout.publish('stream:2', sampleComment('hi'));
    // The first slice reached the first thousand members; the leaver was in the second.
    await fanout.leave('stream:2', leaver);
    await eventually(async () => after.length, (n) => n > 0);
    expect(after).toHaveLength(1);
    expect(late).toEqual([]);
  });

  it('sends a member that left none of the lines still waiting for the window', async () => {
    const fanout = createFanout(createMemoryBus(), LONG_WINDOW);
    const stayer: Buffer[] = [];
    const leaverFrames: Buffer[] = [];
    const leaver = (frame: Buffer) => leaverFrames.push(frame);
    await fanout.join('stream:3', (frame) => stayer.push(frame));
    await fanout.join('stream:3', leaver);
    await fanout.publish('stream:3', sampleComment('first'));
    await fanout.publish('stream:3', sampleComment('second'));
    await fanout.publish('stream:3', sampleComment('third'));
    await fanout.leave('stream:3', leaver);
    await eventually(async () => stayer.length, (n) => n >= 2);
    expect(stayer.flatMap(linesOf)).toEqual(['first', 'second', 'third']);
    expect(leaverFrames.flatMap(linesOf)).toEqual(['first']);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { BATCH_MAX_MESSAGES, serverFrame } from '../../../common/realtime';
import { SAMPLE_OF_EACH_TYPE, sampleComment, sampleTip } from '../../../common/testing/realtime-samples';
import type { Bus, BusState } from '../bus/bus';
import { eventually } from '../../testing/eventually';
import { createMemoryBus } from '../bus/memory-bus';
import { createFanout, createWriteBudget, type Deliver, PACING, SLICE_MS } from './fanout';
import type { PreparedFrame } from './wire';

const parsedLines = new WeakMap<PreparedFrame, string[]>();

/** The lines of a frame as a member reads them: one for `message`, each in order for `messages` (parsed once per frame). */
function linesOf(frame: PreparedFrame): string[] {
  let lines = parsedLines.get(frame);
  if (!lines) parsedLines.set(frame, (lines = parseLines(frame)));
  return lines;
}

function parseLines(frame: PreparedFrame): string[] {
  const parsed = serverFrame.parse(JSON.parse(frame.text.toString()));
  if (parsed.op === 'message') return [(parsed.message as { text: string }).text];
  if (parsed.op === 'messages') return parsed.messages.map((m) => (m as { text: string }).text);
  throw new Error(`unexpected frame ${parsed.op}`);
}

/** No saved-up budget and a long least cost per frame: what arrives after a frame surely waits for the next one, however slow the machine. */
const LONG_WINDOW = { pacing: { burstMs: 0, frameMinMs: 250 } };

describe('the fan-out', () => {
  it('holds back chat lines and tips heard while the bus is not up (the sockets replay them), and lets the rest through', async () => {
    let state: BusState = 'up';
    const bus: Bus = { ...createMemoryBus(), state: () => state };
    const fanout = createFanout(bus, LONG_WINDOW);
    const types: string[] = [];
    await fanout.join('stream:1', (frame) => {
      const parsed = serverFrame.parse(JSON.parse(frame.text.toString()));
      if (parsed.op === 'message') types.push(parsed.message.type);
      else if (parsed.op === 'messages') types.push(...parsed.messages.map((m) => m.type));
    });
    state = 'down';
    await fanout.publish('stream:1', sampleComment('held', '7'));
    await fanout.publish('stream:1', sampleTip(5, '8'));
    await fanout.publish('stream:1', SAMPLE_OF_EACH_TYPE.VIEWERS);
    state = 'up';
    await fanout.publish('stream:1', sampleComment('after', '9'));
    await eventually(async () => types, (seen) => seen.length >= 2);
    expect(types).toEqual(['VIEWERS', 'COMMENT']);
  });

  it('sends a line on a quiet channel at once, as a message frame of its own', async () => {
    const fanout = createFanout(createMemoryBus(), LONG_WINDOW);
    const frames: PreparedFrame[] = [];
    await fanout.join('stream:1', (frame) => frames.push(frame));
    await fanout.publish('stream:1', sampleComment('alone'));
    // No timer ran in between: the line was written within the publish.
    expect(frames.map((f) => JSON.parse(f.text.toString()).op)).toEqual(['message']);
    expect(linesOf(frames[0]!)).toEqual(['alone']);
  });

  it('gathers the lines of a burst into one frame, in order', async () => {
    const fanout = createFanout(createMemoryBus(), LONG_WINDOW);
    const frames: PreparedFrame[] = [];
    await fanout.join('stream:1', (frame) => frames.push(frame));
    const texts = Array.from({ length: 30 }, (_, i) => `line ${i}`);
    for (const text of texts) await fanout.publish('stream:1', sampleComment(text));
    await eventually(async () => frames.flatMap(linesOf).length, (n) => n >= texts.length);
    // Usually two frames: the first line alone, then the rest; a machine that stalls past the window splits the rest.
    expect(JSON.parse(frames[1]!.text.toString()).op).toBe('messages');
    expect(frames.length).toBeLessThan(texts.length / 2);
    expect(frames.flatMap(linesOf)).toEqual(texts);
  });

  it('delivers every line to every member once and in order, over several frames and turns of the event loop', async () => {
    const fanout = createFanout(createMemoryBus());
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
    const late: PreparedFrame[] = [];
    const leaver = (frame: PreparedFrame) => late.push(frame);
    for (let i = 0; i < 1500; i++) await fanout.join('stream:2', () => {});
    await fanout.join('stream:2', leaver);
    // Joined after the leaver: once it has the line, the leaver's turn has passed.
    const after: PreparedFrame[] = [];
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
    const stayer: PreparedFrame[] = [];
    const leaverFrames: PreparedFrame[] = [];
    const leaver = (frame: PreparedFrame) => leaverFrames.push(frame);
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

describe('the write budget', () => {
  const pacing = { share: 0.5, burstMs: 100, frameMinMs: 20 };

  it('lets frames start at once until a burst of writing is spent, then paces them at the share', () => {
    let clock = 0;
    const budget = createWriteBudget(pacing, () => clock);
    expect(budget.delay()).toBe(0);
    budget.spend(60);
    // 40 ms left: the next frame goes at once.
    expect(budget.delay()).toBe(0);
    budget.spend(60);
    // 20 ms overdrawn, refilled at half a ms per ms.
    expect(budget.delay()).toBe(40);
    clock += 40;
    expect(budget.delay()).toBe(0);
  });

  it('counts a cheap frame as the least cost, and fills up no further than the burst', () => {
    let clock = 0;
    const budget = createWriteBudget(pacing, () => clock);
    for (let i = 0; i < 5; i++) budget.spend(0.1);
    expect(budget.delay()).toBe(0);
    budget.spend(0.1);
    expect(budget.delay()).toBe(40);
    clock += 10_000;
    budget.spend(150);
    expect(budget.delay()).toBe(100);
  });
});

describe('the pacing of a channel', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Runs turns of the event loop (immediates are real) without moving the clock: no timer fires. */
  async function turns() {
    for (let i = 0; i < 100; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  /**
   * A channel of `members` members on a clock that only writes move (each costs `writeMs`) or the
   * test moves; timeouts are fake. Answers each member's lines and the frames the first one got.
   */
  async function simulated(members: number, writeMs: number) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let clock = 0;
    const fanout = createFanout(createMemoryBus(), { now: () => clock });
    const frames: Array<{ startedAt: number; lines: string[] }> = [];
    const inboxes: string[][] = [];
    for (let i = 0; i < members; i++) {
      const inbox: string[] = [];
      inboxes.push(inbox);
      const member: Deliver = (frame) => {
        if (i === 0) frames.push({ startedAt: clock, lines: linesOf(frame) });
        inbox.push(...linesOf(frame));
        clock += writeMs;
      };
      await fanout.join('stream:9', member);
    }
    return {
      frames,
      inboxes,
      publish: (text: string) => fanout.publish('stream:9', sampleComment(text)),
      /** Lets `ms` pass: the turns of the event loop run, then the clock and the timers move. */
      async pass(ms: number) {
        await turns();
        clock += ms;
        await vi.advanceTimersByTimeAsync(ms);
      },
      now: () => clock,
    };
  }

  it('gives the event loop back once a turn has written for SLICE_MS, however few sockets that was', async () => {
    const channel = await simulated(3000, 0.02);
    await channel.publish('hello');
    // 5 ms at 0.02 ms a socket: the first turn stops after about 250 sockets, not 1,000.
    const reached = () => channel.inboxes.filter((inbox) => inbox.length > 0).length;
    expect(reached()).toBeGreaterThanOrEqual(SLICE_MS / 0.02);
    expect(reached()).toBeLessThan(SLICE_MS / 0.02 + 64);
    await turns();
    expect(reached()).toBe(3000);
  });

  it('sends the lines that waited for a frame in progress as soon as it ends, without a further wait', async () => {
    // 3,000 members at 0.02 ms: a frame takes 60 ms of writing, over a dozen turns of the event loop.
    const channel = await simulated(3000, 0.02);
    await channel.publish('first');
    await channel.publish('second');
    await channel.publish('third');
    // No time passes but the writes': the first frame's other slices, then the next frame at once.
    await turns();
    expect(channel.frames.map((f) => f.lines)).toEqual([['first'], ['second', 'third']]);
    expect(channel.frames[1]!.startedAt).toBeCloseTo(60, 6);
    expect(channel.inboxes.every((inbox) => inbox.join() === 'first,second,third')).toBe(true);
  });

  it('at a line rate the writes cannot follow, spends at most the share of the time writing, whatever the rate', async () => {
    const run = async (linesPerSecond: number) => {
      const channel = await simulated(3000, 0.02);
      const texts: string[] = [];
      for (let t = 0; t < 2000; t += 1000 / linesPerSecond) {
        texts.push(`line ${texts.length}`);
        await channel.publish(texts.at(-1)!);
        await channel.pass(1000 / linesPerSecond);
      }
      for (let i = 0; i < 20; i++) await channel.pass(100);
      expect(channel.inboxes.every((inbox) => inbox.join() === texts.join())).toBe(true);
      return channel.frames;
    };
    const at100 = await run(100);
    const at1000 = await run(1000);
    // 60 ms per frame, half of 2 s plus the 100 ms burst: at most 18 frames in the sending time.
    const inSending = (frames: Array<{ startedAt: number }>) => frames.filter((f) => f.startedAt < 2000).length;
    expect(inSending(at100)).toBeLessThanOrEqual(Math.ceil((PACING.share * 2000 + PACING.burstMs) / 60));
    expect(inSending(at1000)).toBeLessThanOrEqual(inSending(at100) + 1);
    // Ten times the lines, in frames ten times as large.
    expect(Math.max(...at1000.map((f) => f.lines.length))).toBeGreaterThan(5 * Math.max(...at100.map((f) => f.lines.length)));
  });
});

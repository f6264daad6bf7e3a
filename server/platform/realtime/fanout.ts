/**
 * Local subscribers per realtime channel, fed by the bus: the first local subscriber subscribes the
 * bus channel `rt:<channel>`, the last one leaving unsubscribes it. A frame is serialised and framed
 * once per instance, not once per socket, and a busy channel's lines are coalesced into one `messages`
 * frame per socket (decisions 0027, 0031): a write costs about the same for one line as for twenty, and
 * a fan-out of ten thousand sockets is almost all writes.
 */
import { performance } from 'node:perf_hooks';
import { BATCH_MAX_MESSAGES, busChannelOf, type RealtimeMessage, type ServerFrame } from '../../../common/realtime';
import type { Bus } from '../bus/bus';
import { type PreparedFrame, prepareFrame } from './wire';

/** Takes a `message` or `messages` frame, already serialised and framed. */
export type Deliver = (frame: PreparedFrame) => void;

/**
 * A turn of the event loop writes at most this many sockets, for at most SLICE_MS: a channel with ten
 * thousand viewers takes about 100 ms to write to, and acks, pings, HTTP requests and the database
 * replies of the COMMENTs being stored (several round trips each) should not wait for all of it.
 */
const SOCKETS_PER_TURN = 1000;
export const SLICE_MS = 5;
/** Sockets written between looks at the clock. */
const CLOCK_EVERY = 64;

/**
 * The pacing of a channel's frames (decision 0031): a budget of writing time that fills at
 * `share` ms per ms up to `burstMs`, each frame's writes drawing on it (as at least `frameMinMs`).
 * A frame starts as soon as the previous one ended and the budget is not overdrawn, so a quiet
 * channel's line and the lines that waited for a frame in progress go at once; when lines keep coming,
 * writing takes at most `share` of the channel's time, and the frame rate, not the line rate, sets the
 * writes per second.
 */
export interface Pacing {
  share: number;
  burstMs: number;
  frameMinMs: number;
}

export const PACING: Pacing = { share: 0.75, burstMs: 100, frameMinMs: 20 };

/** A channel's budget of writing time, on the clock `now` (ms). */
export function createWriteBudget({ share, burstMs, frameMinMs }: Pacing, now: () => number) {
  let credit = burstMs;
  let at = now();
  const refill = () => {
    const t = now();
    credit = Math.min(burstMs, credit + (t - at) * share);
    at = t;
  };
  return {
    /** How long the next frame must wait, in ms (0: it may start now). */
    delay(): number {
      refill();
      return credit >= 0 ? 0 : -credit / share;
    },
    /** A frame's writes took `ms`. */
    spend(ms: number) {
      refill();
      credit -= Math.max(ms, frameMinMs);
    },
  };
}

export const messageFrame = (channel: string, message: RealtimeMessage) =>
  Buffer.from(JSON.stringify({ op: 'message', channel, message } satisfies ServerFrame));

/** One frame for lines of one channel, in order: a lone line as `message`, several as `messages`. */
export const linesFrame = (channel: string, messages: RealtimeMessage[]) =>
  messages.length === 1 ? messageFrame(channel, messages[0]!) : Buffer.from(JSON.stringify({ op: 'messages', channel, messages } satisfies ServerFrame));

/**
 * A channel's members and the pump that delivers its lines to them in order: one frame at a time, a
 * slice of the members per turn of the event loop, the lines that arrived meanwhile in the next frame.
 */
function createChannelPump(channel: string, pacing: Pacing, now: () => number) {
  const members = new Set<Deliver>();
  /** The members as an array, rebuilt only after a join or a leave (not per frame). */
  let targets: Deliver[] | null = null;
  const waiting: RealtimeMessage[] = [];
  const budget = createWriteBudget(pacing, now);
  let sending = false;
  let timer: NodeJS.Timeout | null = null;

  let frame: PreparedFrame | null = null;
  let slice: Deliver[] = [];
  let next = 0;
  /** Time spent in this frame's slices (not the turns of other work between them). */
  let writingMs = 0;

  function writeSlice() {
    const began = now();
    let at = began;
    const end = Math.min(next + SOCKETS_PER_TURN, slice.length);
    while (next < end && at - began < SLICE_MS) {
      const stop = Math.min(next + CLOCK_EVERY, end);
      for (; next < stop; next++) {
        const deliver = slice[next]!;
        // A member that left meanwhile (unsubscribed, banned) hears nothing more.
        if (members.has(deliver)) deliver(frame!);
      }
      at = now();
    }
    writingMs += at - began;
    if (next < slice.length) {
      setImmediate(writeSlice);
      return;
    }
    sending = false;
    frame = null;
    budget.spend(writingMs);
    schedule();
  }

  function start() {
    timer = null;
    sending = true;
    frame = prepareFrame(linesFrame(channel, waiting.splice(0, BATCH_MAX_MESSAGES)));
    slice = targets ??= [...members];
    next = 0;
    writingMs = 0;
    writeSlice();
  }

  function schedule() {
    if (sending || timer || waiting.length === 0) return;
    const wait = budget.delay();
    if (wait <= 0) start();
    else timer = setTimeout(start, wait);
  }

  return {
    members,
    push(message: RealtimeMessage) {
      waiting.push(message);
      schedule();
    },
    add(member: Deliver) {
      members.add(member);
      targets = null;
    },
    /** False when it was not a member. */
    remove(member: Deliver): boolean {
      if (!members.delete(member)) return false;
      targets = null;
      return true;
    },
  };
}

type ChannelPump = ReturnType<typeof createChannelPump>;

interface ChannelEntry {
  pump: ChannelPump;
  /** Resolves to the bus unsubscribe function once the bus subscription exists. */
  ready: Promise<() => Promise<void>>;
}

/**
 * Chat lines and tips heard while the bus is not up (Redis away, or back and its instances still publishing
 * what they kept) are not delivered: the sockets are told to resync once it is up and replay them from the
 * stored chat, after the last line and tip they saw. Delivered now, lines of one instance's backlog would reach
 * a socket before older lines of another's still waiting, move its cursor past them, and the replay would
 * skip those (the fault suite saw it). Other messages (presence, signals) keep no history: they go through.
 */
const isReplayed = (message: RealtimeMessage) => message.type === 'COMMENT' || message.type === 'TIP';

export function createFanout(bus: Bus, options: { pacing?: Partial<Pacing>; now?: () => number } = {}) {
  const pacing = { ...PACING, ...options.pacing };
  const now = options.now ?? (() => performance.now());
  const channels = new Map<string, ChannelEntry>();
  return {
    async join(channel: string, member: Deliver): Promise<void> {
      let entry = channels.get(channel);
      if (!entry) {
        const pump = createChannelPump(channel, pacing, now);
        const ready = bus.subscribe(busChannelOf(channel), (message) => {
          if (bus.state() !== 'up' && isReplayed(message as RealtimeMessage)) return;
          pump.push(message as RealtimeMessage);
        });
        entry = { pump, ready };
        channels.set(channel, entry);
        // A failed bus subscription is not kept: the next subscriber tries again.
        const failed = entry;
        ready.catch(() => {
          if (channels.get(channel) === failed) channels.delete(channel);
        });
      }
      entry.pump.add(member);
      try {
        await entry.ready;
      } catch (error) {
        entry.pump.remove(member);
        throw error;
      }
    },
    async leave(channel: string, member: Deliver): Promise<void> {
      const entry = channels.get(channel);
      if (!entry || !entry.pump.remove(member) || entry.pump.members.size > 0) return;
      channels.delete(channel);
      await (await entry.ready)();
    },
    publish: (channel: string, message: RealtimeMessage) => bus.publish(busChannelOf(channel), message),
    localChannels: () => channels.size,
  };
}

export type Fanout = ReturnType<typeof createFanout>;

/**
 * Local subscribers per realtime channel, fed by the bus: the first local subscriber subscribes the
 * bus channel `rt:<channel>`, the last one leaving unsubscribes it. A message is serialised once per
 * instance, not once per socket: with thousands of viewers that is most of the fan-out's cost.
 */
import { busChannelOf, type RealtimeMessage, type ServerFrame } from '../../../common/realtime';
import type { Bus } from '../bus/bus';

/** Takes the `message` frame, already serialised. */
export type Deliver = (frame: Buffer) => void;

/**
 * Sockets written per turn of the event loop: a channel with ten thousand viewers takes over 100 ms
 * to write to, and acks, pings and HTTP requests should not wait for all of it.
 */
const SOCKETS_PER_TURN = 1000;

/** Delivers a channel's frames in order, a slice of its members per turn of the event loop. */
function createPump(members: Set<Deliver>) {
  const frames: Buffer[] = [];
  let running = false;

  function run() {
    const frame = frames.shift();
    if (!frame) {
      running = false;
      return;
    }
    const targets = [...members];
    let next = 0;
    const slice = () => {
      const end = Math.min(next + SOCKETS_PER_TURN, targets.length);
      for (; next < end; next++) {
        const deliver = targets[next]!;
        // A member that left meanwhile (unsubscribed, banned) hears nothing more.
        if (members.has(deliver)) deliver(frame);
      }
      if (next < targets.length) setImmediate(slice);
      else run();
    };
    slice();
  }

  return (frame: Buffer) => {
    frames.push(frame);
    if (running) return;
    running = true;
    run();
  };
}

interface ChannelEntry {
  members: Set<Deliver>;
  /** Resolves to the bus unsubscribe function once the bus subscription exists. */
  ready: Promise<() => Promise<void>>;
}

export const messageFrame = (channel: string, message: RealtimeMessage) =>
  Buffer.from(JSON.stringify({ op: 'message', channel, message } satisfies ServerFrame));

export function createFanout(bus: Bus) {
  const channels = new Map<string, ChannelEntry>();
  return {
    async join(channel: string, member: Deliver): Promise<void> {
      let entry = channels.get(channel);
      if (!entry) {
        const members = new Set<Deliver>();
        const pump = createPump(members);
        const ready = bus.subscribe(busChannelOf(channel), (message) => pump(messageFrame(channel, message as RealtimeMessage)));
        entry = { members, ready };
        channels.set(channel, entry);
        // A failed bus subscription is not kept: the next subscriber tries again.
        const failed = entry;
        ready.catch(() => {
          if (channels.get(channel) === failed) channels.delete(channel);
        });
      }
      entry.members.add(member);
      try {
        await entry.ready;
      } catch (error) {
        entry.members.delete(member);
        throw error;
      }
    },
    async leave(channel: string, member: Deliver): Promise<void> {
      const entry = channels.get(channel);
      if (!entry || !entry.members.delete(member) || entry.members.size > 0) return;
      channels.delete(channel);
      await (await entry.ready)();
    },
    publish: (channel: string, message: RealtimeMessage) => bus.publish(busChannelOf(channel), message),
    localChannels: () => channels.size,
  };
}

export type Fanout = ReturnType<typeof createFanout>;

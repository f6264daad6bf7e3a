/**
 * The host's device and the approved viewer's control of it (spec part 2 §4, §9): the device's status
 * (the virtual toy, the Lovense app's callback or the host's SDK), the app-connection messages, the
 * add-device request, and control commands — checked, rate-limited, delivered to the broadcaster only.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Toy, ToyDevice } from '../../../common/api/toys';
import { TOY } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { userChannelOf, type ToySendFrame } from '../../../common/realtime';
import { levelInRange, offeredCommands, TOY_COMMANDS } from '../../../common/rules/toys';
import type { Db } from '../../platform/db/client';
import { badRequest, conflict, forbidden, tooManyRequests } from '../../platform/http/errors';
import type { ChatService } from '../chat';
import { approvedStates, type AccessMachine } from './access';
import type { ToyProviderApi } from './providers';
import { liveToys, type DeviceState, type Records } from './records';
import type { Place, Rooms } from './rooms';
import { toyAccess, toyDevices } from './tables';
import type { Principal } from '../../platform/http/auth';
import type { Viewer } from '../streams';

/** The virtual toy's toys when the host's page names none. */
export const SIMULATED_TOYS: Toy[] = [{ id: 'simulated-1', name: 'lush', nickname: 'Virtual toy', online: true }];

type Caller = Viewer & { principal: Principal };

export function createControl(deps: {
  db: Db;
  chat: ChatService;
  rooms: Rooms;
  records: Records;
  access: AccessMachine;
  provider: ToyProviderApi;
  log: { warn(obj: object, msg: string): void };
  statusResendMs?: number;
}) {
  const { db, chat, records, rooms, provider } = deps;
  const resendMs = deps.statusResendMs ?? TOY.statusResendMs;
  /** Token buckets per viewer and room (this instance's: a viewer's socket stays on one). */
  const buckets = new Map<string, { tokens: number; at: number }>();
  /** The simulated toy's last level per command, per host (what the virtual toy shows). */
  const levels = new Map<number, Record<string, number>>();
  /** Sequence numbers of commands per viewer and room. */
  const sequence = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  /** The rate limit's clock (tests hold it still: the gateway's `now` does the same for its TTL). */
  let clock: () => number = Date.now;

  function take(key: string): boolean {
    const now = clock();
    const rate = TOY.commandsPerSecond;
    const bucket = buckets.get(key) ?? { tokens: rate, at: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    if (buckets.size > 10_000) buckets.clear();
    buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  async function deviceOf(userId: number): Promise<ToyDevice> {
    const state = await records.device(userId);
    const toys = liveToys(state);
    return {
      provider: provider.kind,
      sdk_url: provider.sdkUrl,
      connected: state.connected,
      app_connection_status: state.connected ? 'connected' : 'disconnected',
      toys: state.toys,
      commands: offeredCommands(toys),
      levels: levels.get(userId) ?? {},
      updated_date: state.updatedAt?.toISOString() ?? null,
    };
  }

  /** 'Lovense app connected.' / '…disconnected.' to the host and the viewers holding APPROVED access, now and again TOY.statusResendMs later. */
  async function announceConnection(hostId: number) {
    // Each sending reads the status then: a resend never repeats a status that has changed since.
    const send = async () => {
      const { connected } = await records.device(hostId);
      const open = (await records.openOf(hostId)).filter((r) => r.access === 'APPROVED');
      const status = connected ? ('connected' as const) : ('disconnected' as const);
      // The spec's lines name Lovense's app; the simulated provider says what it is.
      const simulated = deps.provider.kind === 'simulated';
      const text = connected ? (simulated ? MSG.toyVirtualConnected : MSG.toyAppConnected) : (simulated ? MSG.toyVirtualDisconnected : MSG.toyAppDisconnected);
      if (open.length === 0) {
        await chat.publish(userChannelOf(hostId), { type: 'lovense-app-connection', receiver: hostId, sender: hostId, payload: { status }, text });
        return;
      }
      for (const row of open) {
        const payload = { stream_id: row.streamId, room: row.room, status };
        await chat.publish(userChannelOf(hostId), { type: 'lovense-app-connection', receiver: hostId, sender: hostId, payload, text });
        await chat.publish(userChannelOf(row.viewerId), { type: 'lovense-app-connection', receiver: row.viewerId, sender: hostId, payload, text });
      }
    };
    await send();
    const timer = setTimeout(() => {
      timers.delete(timer);
      send().catch((error: unknown) => deps.log.warn({ err: error, hostId }, 'toy status not resent'));
    }, resendMs);
    timer.unref();
    timers.add(timer);
  }

  /** The host's device changed: approved access follows (controls or 'Device not found'), both sides are told. */
  async function setDevice(hostId: number, change: { connected: boolean; toys?: Toy[] | undefined }): Promise<ToyDevice> {
    const before = await records.device(hostId);
    const toys = change.toys ?? (before.toys.length > 0 ? before.toys : provider.kind === 'simulated' ? SIMULATED_TOYS : []);
    await db.insert(toyDevices).values({ userId: hostId, connected: change.connected, toys })
      .onConflictDoUpdate({ target: toyDevices.userId, set: { connected: change.connected, toys, updatedAt: sql`now()` } });
    const after: DeviceState = { connected: change.connected, toys, updatedAt: new Date() };
    const toysChanged = JSON.stringify(liveToys(before)) !== JSON.stringify(liveToys(after));
    if (toysChanged || before.connected !== after.connected) {
      for (const row of await records.openOf(hostId)) {
        if (row.access !== 'APPROVED') {
          await records.tell(row, 'DEVICE_CHANGED');
          continue;
        }
        const states = approvedStates(after, { broadcaster: row.broadcasterState, viewer: row.viewerState, requestedTip: row.requestedTip });
        const [moved] = await db.update(toyAccess).set({ ...states, updatedDate: sql`now()` })
          .where(and(eq(toyAccess.id, row.id), eq(toyAccess.access, 'APPROVED'))).returning();
        if (moved) await records.tell(moved, 'DEVICE_CHANGED');
      }
    }
    if (before.connected !== after.connected) await announceConnection(hostId);
    return deviceOf(hostId);
  }

  /** The viewer's APPROVED access in this room, for a control operation; anyone else is refused. */
  async function approvedViewer(place: Place, caller: Caller) {
    const { room, host } = await rooms.partyOf(place, caller, 'forbidden');
    if (host) throw forbidden(MSG.toyViewerOnly);
    const row = await records.find(place, caller.principal.userId);
    if (!row) throw forbidden(MSG.toyNoAccess);
    if (row.access !== 'APPROVED') throw conflict(fill(MSG.toyNotNow, { access: row.access }));
    rooms.assertOpen(room);
    return { room, row };
  }

  async function command(place: Place, frame: Extract<ToySendFrame, { type: 'lovense-command' }>, caller: Caller) {
    const { room, row } = await approvedViewer(place, caller);
    const key = `${place.room}:${place.streamId}:${caller.principal.userId}`;
    if (!take(key)) throw tooManyRequests(MSG.toyCommandsTooFast);
    const toys = liveToys(await records.device(room.hostId));
    if (toys.length === 0) throw conflict(MSG.toyDeviceNotFound);
    if (!offeredCommands(toys).includes(frame.command)) throw conflict(MSG.toyCommandNotOffered);
    if (!levelInRange(frame.command, frame.level)) {
      const { min, max } = TOY_COMMANDS[frame.command];
      throw badRequest(fill(MSG.toyLevelRange, { min, max, command: frame.command }), 'level');
    }
    const seq = (sequence.get(key) ?? 0) + 1;
    if (sequence.size > 10_000) sequence.clear();
    sequence.set(key, seq);
    if (provider.kind === 'simulated') levels.set(room.hostId, { ...levels.get(room.hostId), [frame.command]: frame.level });
    await chat.publish(userChannelOf(room.hostId), {
      type: 'lovense-command',
      receiver: room.hostId,
      sender: row.viewerId,
      payload: { stream_id: place.streamId, room: place.room, command: frame.command, level: frame.level, seq, at: new Date().toISOString() },
    });
  }

  /** The viewer found no toy: the broadcaster is asked to add one (SHOW_TOY_ADD_PENDING). */
  async function addDeviceRequest(place: Place, caller: Caller) {
    const { room, row } = await approvedViewer(place, caller);
    const [moved] = await db.update(toyAccess).set({ broadcasterState: 'SHOW_TOY_ADD_PENDING', viewerState: 'SHOW_DEVICE_NOT_FOUND', updatedDate: sql`now()` })
      .where(and(eq(toyAccess.id, row.id), inArray(toyAccess.access, ['APPROVED']))).returning();
    if (!moved) throw conflict(MSG.toyNoAccess);
    await records.tell(moved, 'ADD_DEVICE_REQUEST');
    await chat.publish(userChannelOf(room.hostId), {
      type: 'lovense-add-device-request', receiver: room.hostId, sender: row.viewerId, payload: { stream_id: place.streamId, room: place.room }, text: MSG.toyAddDevices,
    });
  }

  /** The toy operations sent on a room's channel (handed to the chat module). */
  async function handleSend(place: Place, frame: ToySendFrame, caller: Caller) {
    switch (frame.type) {
      case 'lovense-command':
        return command(place, frame, caller);
      case 'lovense-add-device-request':
        return addDeviceRequest(place, caller);
      case 'lovense-viewer-end-call': {
        const { room, host } = await rooms.partyOf(place, caller, 'forbidden');
        if (host) throw forbidden(MSG.toyViewerOnly);
        return deps.access.viewerLeft(room, caller.principal.userId);
      }
      case 'lovense-host-end-call': {
        const { host } = await rooms.partyOf(place, caller, 'forbidden');
        if (!host) throw forbidden(MSG.toyBroadcasterOnly);
        return deps.access.closeRoom(place, 'HOST_END_CALL');
      }
    }
  }

  return {
    deviceOf,
    setDevice,
    handleSend,
    /** Replaces the rate limit's clock (null: the real one again). */
    useClock(now: (() => number) | null) {
      clock = now ?? Date.now;
    },
    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type Control = ReturnType<typeof createControl>;

/**
 * Device-access records: reading them, their wire shape for each side, and telling both sides of a
 * change on their own user channels (the server is the only publisher: decision 0020).
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { OPEN_TOY_ACCESS, type LovenseEvent, type Toy, type ToyAccessRecord } from '../../../common/api/toys';
import { userChannelOf, type RealtimeMessage, type TOY_CHANGE_CAUSES } from '../../../common/realtime';
import { offeredCommands } from '../../../common/rules/toys';
import type { Db, Executor } from '../../platform/db/client';
import type { AccountsService } from '../accounts';
import type { Place } from './rooms';
import { toyAccess, toyDevices } from './tables';

export type AccessRow = typeof toyAccess.$inferSelect;
export type ChangeEvent = LovenseEvent | (typeof TOY_CHANGE_CAUSES)[number];

export interface DeviceState {
  connected: boolean;
  toys: Toy[];
  updatedAt: Date | null;
}

/** The toys that count: those switched on, of a connected device. */
export const liveToys = (device: DeviceState) => (device.connected ? device.toys.filter((t) => t.online) : []);

export function createRecords(deps: { db: Db; accounts: AccountsService; publish: (channel: string, message: RealtimeMessage) => Promise<void> }) {
  const { db } = deps;

  async function device(userId: number, exec: Executor = db): Promise<DeviceState> {
    const [row] = await exec.select().from(toyDevices).where(eq(toyDevices.userId, userId));
    return row ? { connected: row.connected, toys: row.toys, updatedAt: row.updatedAt } : { connected: false, toys: [], updatedAt: null };
  }

  async function find(place: Place, viewerId: number, exec: Executor = db): Promise<AccessRow | null> {
    const [row] = await exec.select().from(toyAccess)
      .where(and(eq(toyAccess.room, place.room), eq(toyAccess.streamId, place.streamId), eq(toyAccess.viewerId, viewerId)));
    return row ?? null;
  }

  /** The room's records, a pending one first, then an approved one (spec part 2 §4), then the newest. */
  async function ofRoom(place: Place): Promise<AccessRow[]> {
    return db.select().from(toyAccess)
      .where(and(eq(toyAccess.room, place.room), eq(toyAccess.streamId, place.streamId)))
      .orderBy(sql`case ${toyAccess.access} when 'PENDING' then 0 when 'APPROVED' then 1 when 'INIT' then 2 else 3 end`, desc(toyAccess.updatedDate), desc(toyAccess.id))
      .limit(200);
  }

  /** Open access (INIT, PENDING, APPROVED) a broadcaster has granted, anywhere. */
  async function openOf(broadcasterId: number): Promise<AccessRow[]> {
    return db.select().from(toyAccess).where(and(eq(toyAccess.broadcasterId, broadcasterId), inArray(toyAccess.access, [...OPEN_TOY_ACCESS])));
  }

  async function toWire(rows: AccessRow[], forHost: boolean): Promise<ToyAccessRecord[]> {
    if (rows.length === 0) return [];
    const users = await deps.accounts.publicUsers(rows.map((r) => r.viewerId));
    const devices = new Map<number, DeviceState>();
    for (const hostId of new Set(rows.map((r) => r.broadcasterId))) devices.set(hostId, await device(hostId));
    return rows.map((row) => {
      const state = devices.get(row.broadcasterId)!;
      const toys = liveToys(state);
      const user = users.get(row.viewerId);
      return {
        id: row.id,
        access: row.access,
        broadcaster_state: row.broadcasterState,
        broadcaster_id: row.broadcasterId,
        viewer_state: row.viewerState,
        viewer_id: row.viewerId,
        viewer: { id: row.viewerId, sname: user ? user.fullname || user.username : '', avatar: user?.avatar ?? null },
        data: toys,
        commands: offeredCommands(toys),
        tip_amount: row.tipAmount,
        tip_currency: 'CON' as const,
        is_tip_paid: row.isTipPaid ? ('Y' as const) : ('N' as const),
        requested_tip: row.requestedTip,
        paid_total: row.paidTotal,
        qr_data: forHost && row.qr ? { qr: row.qr, code: row.qrCode ?? '' } : null,
        stream_id: row.streamId,
        room: row.room,
        receiver_id: row.viewerId,
        sender_id: row.broadcasterId,
        service: row.service,
        entry_date: row.entryDate.toISOString(),
        updated_date: row.updatedDate.toISOString(),
        app_connection_status: state.connected ? ('connected' as const) : ('disconnected' as const),
      };
    });
  }

  const one = async (row: AccessRow, forHost: boolean) => (await toWire([row], forHost))[0]!;

  /** Both sides hear of a change: the broadcaster's copy with the QR, the viewer's without; each with its own line if any. */
  async function tell(row: AccessRow, event: ChangeEvent, texts: { host?: string; viewer?: string } = {}) {
    const [host, viewer] = await Promise.all([one(row, true), one(row, false)]);
    await deps.publish(userChannelOf(row.broadcasterId), { type: 'lovense-access', data: { event, record: host }, ...(texts.host ? { text: texts.host } : {}) });
    await deps.publish(userChannelOf(row.viewerId), { type: 'lovense-access', data: { event, record: viewer }, ...(texts.viewer ? { text: texts.viewer } : {}) });
  }

  return { device, find, ofRoom, openOf, toWire, one, tell };
}

export type Records = ReturnType<typeof createRecords>;

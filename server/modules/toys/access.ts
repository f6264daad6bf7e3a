/**
 * The toy-device access state machine (spec part 2 §4; the table is in common/api/toys.ts): the eight
 * events of `lovense-action`, the hang-ups, and the room closing. Each transition is one guarded
 * statement (or one transaction with the ledger for a tip), then both sides are told.
 */
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  OPEN_TOY_ACCESS, type BroadcasterState, type LovenseAction, type ToyAccess, type ToyAccessRecord, type ViewerState,
} from '../../../common/api/toys';
import { fill, MSG } from '../../../common/messages';
import { userChannelOf } from '../../../common/realtime';
import { deviceTip } from '../../../common/rules/toys';
import type { EventOutbox } from '../../platform/event-outbox';
import { lockForTransaction } from '../../platform/db/advisory-lock';
import type { Db, Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import type { KeyedRequest } from '../../platform/http/idempotency';
import { appError, badRequest, conflict, forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import type { ChatService } from '../chat';
import { InsufficientFunds, platformFee, receivingShard, type Ledger } from '../ledger';
import type { Viewer } from '../streams';
import type { ToyProviderApi } from './providers';
import { liveToys, type AccessRow, type DeviceState, type Records } from './records';
import type { Place, Room, Rooms } from './rooms';
import { toyAccess } from './tables';

type Caller = Viewer & { principal: Principal };

const notNow = (access: ToyAccess) => conflict(fill(MSG.toyNotNow, { access }));
const isOpen = (access: ToyAccess) => OPEN_TOY_ACCESS.includes(access);

/** What each side shows once access is approved: the controls if the host's toys are there, else 'Device not found'. */
export function approvedStates(device: DeviceState, current?: { broadcaster: BroadcasterState; viewer: ViewerState; requestedTip: number }) {
  const hasToys = liveToys(device).length > 0;
  if (current && current.requestedTip > 0) return { broadcasterState: 'SHOW_TIP_PENDING' as const, viewerState: 'SHOW_TIP_REQUEST' as const };
  const broadcasterState: BroadcasterState = hasToys ? 'SHOW_LOVENCE_CONNECTED' : current?.broadcaster === 'SHOW_TOY_ADD_PENDING' ? 'SHOW_TOY_ADD_PENDING' : 'NONE';
  return { broadcasterState, viewerState: (hasToys ? 'SHOW_CONTROLS' : 'SHOW_DEVICE_NOT_FOUND') as ViewerState };
}

export interface AccessDeps {
  db: Db;
  ledger: Ledger;
  accounts: AccountsService;
  chat: ChatService;
  rooms: Rooms;
  records: Records;
  provider: ToyProviderApi;
  feePercent: number;
  /** Events that follow a commit (a toy purchase told to the host). */
  outbox?: EventOutbox;
}

export function createAccessMachine(deps: AccessDeps) {
  const { db, ledger, records, rooms, provider } = deps;

  const lockRoom = (tx: Executor, place: Place) => lockForTransaction(tx, `toys:${place.room}:${place.streamId}`);

  /** Moves a record from one of `from` to the change; 409 naming its access when it is elsewhere. */
  async function transition(row: AccessRow, from: readonly ToyAccess[], change: Partial<typeof toyAccess.$inferInsert>): Promise<AccessRow> {
    const [moved] = await db.update(toyAccess).set({ ...change, updatedDate: sql`now()` })
      .where(and(eq(toyAccess.id, row.id), inArray(toyAccess.access, [...from]))).returning();
    if (moved) return moved;
    const now = await records.find(row, row.viewerId);
    throw notNow(now?.access ?? row.access);
  }

  async function recordOf(place: Place, viewerId: number): Promise<AccessRow> {
    const row = await records.find(place, viewerId);
    if (!row) throw notFound(MSG.toyNoAccess);
    return row;
  }

  async function hostName(userId: number) {
    const user = (await deps.accounts.publicUsers([userId])).get(userId);
    return user ? user.fullname || user.username : '';
  }

  /** The QR for the host's app; INIT becomes PENDING (the offer goes out) once it exists. */
  async function withQr(row: AccessRow, event: 'GET_QR_CODE' | 'REGENERATE_QR_CODE'): Promise<AccessRow> {
    const qr = await provider.qrCode({ userId: row.broadcasterId, name: await hostName(row.broadcasterId) });
    const [updated] = await db.update(toyAccess).set({
      qr: qr.qr,
      qrCode: qr.code,
      updatedDate: sql`now()`,
      access: sql`case when ${toyAccess.access} = 'INIT' then 'PENDING' else ${toyAccess.access} end`,
      broadcasterState: sql`case when ${toyAccess.access} = 'INIT' then 'SHOW_TIP_PENDING' else ${toyAccess.broadcasterState} end`,
      viewerState: sql`case when ${toyAccess.access} = 'INIT' then 'SHOW_ACCESS_OFFER' else ${toyAccess.viewerState} end`,
    }).where(and(eq(toyAccess.id, row.id), inArray(toyAccess.access, [...OPEN_TOY_ACCESS]))).returning();
    if (!updated) throw notNow((await records.find(row, row.viewerId))?.access ?? row.access);
    await records.tell(updated, event);
    return updated;
  }

  // -------------------------------------------------------------------------------------------
  // The broadcaster's events.

  async function requestAccess(room: Room, input: { viewer_id: number; tip_amount: number }, caller: Caller): Promise<AccessRow> {
    rooms.assertOpen(room);
    await rooms.assertViewer(room, input.viewer_id, caller.skin);
    const tip = deviceTip(input.tip_amount);
    const row = await db.transaction(async (tx) => {
      await lockRoom(tx, room);
      const [other] = await tx.select({ id: toyAccess.id }).from(toyAccess).where(and(
        eq(toyAccess.room, room.room), eq(toyAccess.streamId, room.streamId), ne(toyAccess.viewerId, input.viewer_id), inArray(toyAccess.access, [...OPEN_TOY_ACCESS]),
      ));
      if (other) throw conflict(MSG.toyOtherViewer);
      const existing = await records.find(room, input.viewer_id, tx);
      if (existing && existing.access !== 'INIT' && isOpen(existing.access)) throw notNow(existing.access);
      const fresh = {
        broadcasterId: room.hostId, access: 'INIT' as const, broadcasterState: 'NONE' as const, viewerState: 'NONE' as const, tipAmount: tip,
        requestedTip: 0, isTipPaid: false, paidTotal: 0, qr: null, qrCode: null, service: caller.skin,
      };
      const [written] = await tx.insert(toyAccess).values({ room: room.room, streamId: room.streamId, viewerId: input.viewer_id, ...fresh })
        .onConflictDoUpdate({ target: [toyAccess.room, toyAccess.streamId, toyAccess.viewerId], set: { ...fresh, entryDate: sql`now()`, updatedDate: sql`now()` } })
        .returning();
      return written!;
    });
    // The QR is asked outside the transaction: a provider's failure leaves INIT (502 'Failed to Generate QR.'), retried by either event.
    return withQr(row, 'GET_QR_CODE');
  }

  async function regenerateQr(room: Room, viewerId: number): Promise<AccessRow> {
    const row = await recordOf(room, viewerId);
    if (!isOpen(row.access)) throw notNow(row.access);
    if (row.access === 'INIT' || row.access === 'PENDING') rooms.assertOpen(room);
    return withQr(row, 'REGENERATE_QR_CODE');
  }

  async function revoke(room: Room, viewerId: number): Promise<AccessRow> {
    const row = await recordOf(room, viewerId);
    const revoked = await transition(row, OPEN_TOY_ACCESS, { access: 'REVOKE', broadcasterState: 'NONE', viewerState: 'NONE', requestedTip: 0 });
    await records.tell(revoked, 'REVOKE_ACCESS', { viewer: MSG.toyAccessRevokedByBroadcaster });
    return revoked;
  }

  async function requestTip(room: Room, input: { viewer_id: number; tip_amount: number }): Promise<AccessRow> {
    rooms.assertOpen(room);
    const row = await recordOf(room, input.viewer_id);
    const asked = await transition(row, ['APPROVED'], { requestedTip: deviceTip(input.tip_amount), broadcasterState: 'SHOW_TIP_PENDING', viewerState: 'SHOW_TIP_REQUEST' });
    await records.tell(asked, 'PAID_TIP_REQUEST');
    return asked;
  }

  // -------------------------------------------------------------------------------------------
  // The viewer's events.

  async function decline(room: Room, viewerId: number, event: 'DECLINE_REQUEST' | 'VIEWER_END_CALL'): Promise<AccessRow> {
    const row = await recordOf(room, viewerId);
    const declined = await transition(row, OPEN_TOY_ACCESS, { access: 'DECLINE', broadcasterState: 'NONE', viewerState: 'NONE', requestedTip: 0 });
    await records.tell(declined, event, event === 'DECLINE_REQUEST' ? { host: MSG.toyViewerDeclined } : {});
    return declined;
  }

  /** What the viewer owes on this record now: the access tip while PENDING, an extra tip asked while APPROVED. */
  const owedOn = (row: AccessRow) => (row.access === 'PENDING' ? row.tipAmount : row.access === 'APPROVED' ? row.requestedTip : 0);

  /**
   * PAID_TIP_SUCCESS: the tip moves from the viewer to the broadcaster in one ledger transfer (kind
   * `toy_tip`), in the transaction that approves the access — approval never precedes the commit. The
   * viewer pays the amount they saw (`seen`): when the host's ask differs now, nothing moves (409 with
   * the amount asked, which the viewer's page shows to accept). The ledger key is the record's payment
   * number, so two calls never pay one step twice; the Idempotency-Key that paid the last step answers
   * the record again (the route layer refused it already if its body differs), another key finds
   * nothing to pay (409).
   */
  async function pay(room: Room, caller: Caller, keyed: KeyedRequest | undefined, seen: number) {
    if (!keyed) throw badRequest(MSG.idempotencyKeyRequired, 'idempotency-key');
    const payerId = caller.principal.userId;
    const row = await recordOf(room, payerId);
    const replay = (current: AccessRow) => current.lastPaymentKey === keyed.key;
    /** What stops a payment of `seen` on this record now, if anything. */
    const refusal = (current: AccessRow) => {
      const owed = owedOn(current);
      if (owed === 0) return current.access === 'APPROVED' ? conflict(MSG.toyNothingToPay) : notNow(current.access);
      if (owed !== seen) return appError('conflict', fill(MSG.toyTipChanged, { amount: owed }), { field: 'tip_amount', tip_amount: owed });
      return null;
    };
    if (replay(row)) return { row, created: false };
    const refused = refusal(row);
    if (refused) throw refused;
    rooms.assertOpen(room);
    const device = await records.device(row.broadcasterId);
    // No device connected: nothing to control, so nothing is charged (the offer waits for the device).
    if (!device.connected) throw conflict(MSG.toyNoDeviceToPay);
    const shard = receivingShard(payerId);
    await ledger.gather(payerId, 'CON');
    await ledger.warmAccounts([{ userId: payerId, currency: 'CON' }, { userId: row.broadcasterId, currency: 'CON', shard }, { system: 'fees', currency: 'CON', shard }]);
    try {
      const paid = await db.transaction(async (tx) => {
        const [current] = await tx.select().from(toyAccess).where(eq(toyAccess.id, row.id)).for('update');
        if (!current) throw notFound(MSG.toyNoAccess);
        if (replay(current)) return { row: current, created: false };
        const refusedNow = refusal(current);
        if (refusedNow) throw refusedNow;
        const amount = owedOn(current);
        const fee = platformFee(amount, deps.feePercent);
        const { transferId } = await ledger.transfer({
          kind: 'toy_tip',
          idempotencyKey: `toy:${current.id}:payment:${current.payments + 1}`,
          fromUserId: payerId,
          toUserId: current.broadcasterId,
          ...(current.room === 'stream' ? { streamId: current.streamId } : {}),
          amount,
          currency: 'CON',
          details: { toy_access_id: current.id, room: current.room, stream_id: current.streamId, fee, fee_percent: deps.feePercent, extra: current.access === 'APPROVED' },
          legs: [
            { account: { userId: payerId, currency: 'CON' }, amount: -amount },
            { account: { userId: current.broadcasterId, currency: 'CON', shard }, amount: amount - fee },
            ...(fee > 0 ? [{ account: { system: 'fees' as const, currency: 'CON' as const, shard }, amount: fee }] : []),
          ],
        }, tx);
        await deps.outbox?.write(tx, 'payment.received', { kind: 'toy_tip', transferId, payerId, payeeId: current.broadcasterId, amount, subjectId: current.id });
        const states = approvedStates(device, { broadcaster: current.broadcasterState, viewer: current.viewerState, requestedTip: 0 });
        const [approved] = await tx.update(toyAccess).set({
          access: 'APPROVED', isTipPaid: true, requestedTip: 0, paidTotal: current.paidTotal + amount, payments: current.payments + 1,
          lastPaymentKey: keyed.key, ...states, updatedDate: sql`now()`,
        }).where(eq(toyAccess.id, current.id)).returning();
        return { row: approved!, created: true, first: current.access === 'PENDING' };
      });
      deps.outbox?.wake();
      return paid;
    } catch (error) {
      if (error instanceof InsufficientFunds) throw appError('insufficient_funds');
      throw error;
    }
  }

  // -------------------------------------------------------------------------------------------

  /** One `lovense-action` call: who may send which event is checked here (host-only, that viewer only). */
  async function act(input: LovenseAction, caller: Caller, keyed: KeyedRequest | undefined): Promise<{ message?: string; data: ToyAccessRecord | ToyAccessRecord[] | null; balance?: { CON: number } }> {
    const place: Place = { room: input.room, streamId: input.stream_id };
    const { room, host } = await rooms.partyOf(place, caller, 'hidden');
    const me = caller.principal.userId;
    const hostOnly = () => {
      if (!host) throw forbidden(MSG.toyBroadcasterOnly);
    };
    const viewerOnly = (viewerId?: number) => {
      if (host || (viewerId !== undefined && viewerId !== me)) throw forbidden(MSG.toyViewerOnly);
    };
    switch (input.event) {
      case 'GET_QR_CODE':
        hostOnly();
        return { data: await records.one(await requestAccess(room, input, caller), true) };
      case 'REGENERATE_QR_CODE':
        hostOnly();
        return { data: await records.one(await regenerateQr(room, input.viewer_id), true) };
      case 'REVOKE_ACCESS':
        hostOnly();
        return { message: MSG.toyAccessRevoked, data: await records.one(await revoke(room, input.viewer_id), true) };
      case 'PAID_TIP_REQUEST':
        hostOnly();
        return { message: MSG.toyTipRequestSent, data: await records.one(await requestTip(room, input), true) };
      case 'GET_LOVENSE_LIST':
        hostOnly();
        return { data: await records.toWire(await records.ofRoom(place), true) };
      case 'GET_LOVENSE': {
        if (!host) viewerOnly(input.viewer_id);
        const row = await records.find(place, input.viewer_id);
        return { data: row ? await records.one(row, host) : null };
      }
      case 'DECLINE_REQUEST':
        viewerOnly(input.viewer_id);
        return { data: await records.one(await decline(room, me, 'DECLINE_REQUEST'), false) };
      case 'PAID_TIP_SUCCESS': {
        viewerOnly();
        const outcome = await pay(room, caller, keyed, input.tip_amount);
        if (outcome.created) await records.tell(outcome.row, 'PAID_TIP_SUCCESS', 'first' in outcome && outcome.first ? { host: MSG.toyViewerTipped } : {});
        return { data: await records.one(outcome.row, false), balance: { CON: (await ledger.balances(me)).CON } };
      }
    }
  }

  /** The viewer hangs up: open access is declined and the broadcaster hears it (spec part 2 §4); nothing open, nothing to do. */
  async function viewerLeft(room: Room, viewerId: number) {
    const row = await records.find(room, viewerId);
    if (!row || !isOpen(row.access)) return;
    try {
      await decline(room, viewerId, 'VIEWER_END_CALL');
    } catch (error) {
      // Revoked or declined in between: already closed.
      if (error instanceof Error && 'status' in error && error.status === 409) return;
      throw error;
    }
    await deps.chat.publish(userChannelOf(room.hostId), {
      type: 'lovense-viewer-end-call', receiver: room.hostId, sender: viewerId, payload: { stream_id: room.streamId, room: room.room }, text: MSG.toyViewerLeftCall,
    });
  }

  /** The broadcaster hangs up, or the room closes: every open access of the room is revoked. */
  async function closeRoom(place: Place, event: 'HOST_END_CALL' | 'ROOM_CLOSED') {
    const revoked = await db.update(toyAccess).set({ access: 'REVOKE', broadcasterState: 'NONE', viewerState: 'NONE', requestedTip: 0, updatedDate: sql`now()` })
      .where(and(eq(toyAccess.room, place.room), eq(toyAccess.streamId, place.streamId), inArray(toyAccess.access, [...OPEN_TOY_ACCESS]))).returning();
    for (const row of revoked) await records.tell(row, event, { viewer: MSG.toyAccessRevokedByBroadcaster });
  }

  return { act, viewerLeft, closeRoom };
}

export type AccessMachine = ReturnType<typeof createAccessMachine>;

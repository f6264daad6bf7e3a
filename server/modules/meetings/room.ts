/**
 * The room's calls: joining (the conference's keys once paid), paying the meeting's tip or a tip during
 * the call (one ledger transfer and the invitee's paid amount, in one transaction), the host kicking a
 * guest and ending the call.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import { meetingChannelOf, userChannelOf } from '../../../common/realtime';
import type { Config } from '../../config';
import type { Db } from '../../platform/db/client';
import type { EventOutbox } from '../../platform/event-outbox';
import type { DomainEventHub } from '../../platform/events';
import type { Principal } from '../../platform/http/auth';
import { appError, conflict, forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { tipMessage, type ChatService } from '../chat';
import { InsufficientFunds, platformFee, receivingShard, type Ledger } from '../ledger';
import { jitsiRoomOf, jitsiToken, JITSI_TOKEN_MARGIN_MS } from './jitsi-token';
import type { RoomPresence } from './presence';
import type { RoomChat } from './signalling';
import { nameOf, type MeetingRow, type Standings } from './standing';
import { meetingInvitees, meetings } from './tables';
import './events';

/** The ledger legs of a guest's payment to the host: `amount` from the guest, the fee to the platform, the rest to the host. */
function paymentLegs(payerId: number, hostId: number, amount: number, fee: number) {
  const shard = receivingShard(payerId);
  return [
    { account: { userId: payerId, currency: 'CON' as const }, amount: -amount },
    { account: { userId: hostId, currency: 'CON' as const, shard }, amount: amount - fee },
    ...(fee > 0 ? [{ account: { system: 'fees' as const, currency: 'CON' as const, shard }, amount: fee }] : []),
  ];
}

export function createRoomCalls(deps: {
  db: Db;
  accounts: AccountsService;
  ledger: Ledger;
  chat: ChatService;
  events: DomainEventHub;
  outbox: EventOutbox;
  feePercent: number;
  conference: Config['conference'];
  standings: Standings;
  presence: RoomPresence;
  roomChat: RoomChat;
  clock: () => Date;
}) {
  const { db, accounts, ledger, chat, clock } = deps;
  const { partyOf, hostOf, assertGuestInCall, detailOf } = deps.standings;
  const { presentIds, publishParticipants, goLive } = deps.presence;

  function conferenceFor(row: MeetingRow, principal: Principal, user: { name: string; avatar: string | null; email: string }, host: boolean) {
    const conference = deps.conference;
    if (conference.kind === 'builtin') return { kind: 'builtin' as const, ice_servers: conference.iceServers };
    const room = jitsiRoomOf(row.id, conference.appSecret);
    const jwt = jitsiToken({
      appId: conference.appId, appSecret: conference.appSecret, domain: conference.domain, room,
      user: { id: principal.userId, ...user }, moderator: host,
      now: clock(),
      notBefore: new Date(Math.min(clock().getTime(), row.startTime.getTime() - JITSI_TOKEN_MARGIN_MS)),
      expiresAt: new Date(Math.max(clock().getTime(), row.endTime.getTime()) + JITSI_TOKEN_MARGIN_MS),
    });
    return { kind: 'jitsi' as const, domain: conference.domain, room, jwt };
  }

  async function join(id: number, principal: Principal) {
    const standing = await partyOf(id, principal);
    const { row, host, invitee } = standing;
    if (invitee?.kickedAt) throw forbidden(MSG.meetingKickedOut);
    if (row.state === 'ended') throw conflict(MSG.meetingIsOver);
    if (host) await goLive(row);
    const [users, contact, present] = await Promise.all([accounts.publicUsers([principal.userId]), accounts.mailContact(principal.userId), presentIds(id)]);
    const me = users.get(principal.userId);
    const owed = host ? 0 : Math.max(0, row.tip - (invitee?.paid ?? 0));
    return {
      meeting: await detailOf(host ? { ...row, state: 'live' } : row, principal.userId),
      paid: owed === 0,
      owed,
      host_present: host || present.includes(row.hostId),
      conference_kind: deps.conference.kind,
      // A guest who still owes gets the pay wall's answer and nothing that opens the conference.
      conference: owed === 0 ? conferenceFor(row, principal, { name: nameOf(me), avatar: me?.avatar ?? null, email: contact?.email ?? '' }, host) : null,
    };
  }

  /** The meeting tip, or a tip during the call: one ledger transfer and the invitee's paid amount, in one transaction. */
  async function pay(id: number, principal: Principal, amount: number, idempotencyKey: string) {
    const standing = await partyOf(id, principal);
    assertGuestInCall(standing);
    const { row } = standing;
    const payerId = principal.userId;
    const fee = platformFee(amount, deps.feePercent);
    const legs = paymentLegs(payerId, row.hostId, amount, fee);
    await ledger.gather(payerId, 'CON');
    await ledger.warmAccounts(legs.map((l) => l.account));
    let outcome: { transferId: number; created: boolean };
    try {
      outcome = await db.transaction(async (tx) => {
        // Shares the meeting's row lock with deletion: a payment lands before the refunds or not at all.
        const [open] = await tx.select({ id: meetings.id }).from(meetings).where(and(eq(meetings.id, id), isNull(meetings.deletedAt))).for('share');
        if (!open) throw notFound(MSG.meetingUnavailable);
        const moved = await ledger.transfer({
          kind: 'meeting_fee',
          idempotencyKey: `meeting:${id}:payer:${payerId}:key:${idempotencyKey}`,
          fromUserId: payerId,
          toUserId: row.hostId,
          amount,
          currency: 'CON',
          details: { meeting_id: id, fee, fee_percent: deps.feePercent },
          legs,
        }, tx);
        if (moved.created) {
          await tx.update(meetingInvitees).set({ paid: sql`${meetingInvitees.paid} + ${amount}`, feesPaid: sql`${meetingInvitees.feesPaid} + ${fee}` })
            .where(and(eq(meetingInvitees.meetingId, id), eq(meetingInvitees.userId, payerId)));
          await deps.outbox.write(tx, 'payment.received', {
            kind: 'meeting_fee', transferId: moved.transferId, payerId, payeeId: row.hostId, amount, subjectId: id, title: row.title,
          });
        }
        return moved;
      });
      deps.outbox.wake();
    } catch (error) {
      if (error instanceof InsufficientFunds) throw appError('insufficient_funds');
      throw error;
    }
    if (outcome.created) {
      const tipper = (await accounts.publicUsers([payerId])).get(payerId);
      await chat.publish(meetingChannelOf(id), tipMessage({ transferId: outcome.transferId, tipperId: payerId, streamOwnerId: row.hostId, amount, at: clock(), tipper }));
      await publishParticipants(id);
    }
    const [invitee] = await db.select().from(meetingInvitees).where(and(eq(meetingInvitees.meetingId, id), eq(meetingInvitees.userId, payerId)));
    const owed = Math.max(0, row.tip - (invitee?.paid ?? 0));
    return { paid: owed === 0, owed, balance: { CON: (await ledger.balances(payerId)).CON } };
  }

  async function kick(id: number, principal: Principal, userId: number) {
    const row = await hostOf(id, principal);
    if (row.state === 'ended') throw conflict(MSG.meetingIsOver);
    const kicked = await db.update(meetingInvitees).set({ kickedAt: sql`coalesce(${meetingInvitees.kickedAt}, now())` })
      .where(and(eq(meetingInvitees.meetingId, id), eq(meetingInvitees.userId, userId))).returning({ userId: meetingInvitees.userId });
    if (kicked.length === 0) throw notFound(MSG.meetingNotInvited);
    const farewell = { type: 'KICKED', data: { meeting_id: id } } as const;
    await chat.publish(userChannelOf(userId), farewell);
    await chat.removeFromChannels(userId, [meetingChannelOf(id)], farewell);
    return {};
  }

  async function end(id: number, principal: Principal) {
    const row = await hostOf(id, principal);
    const ended = await db.update(meetings).set({ state: 'ended', endedAt: clock() })
      .where(and(eq(meetings.id, id), sql`${meetings.state} <> 'ended'`)).returning();
    if (ended.length === 0) throw conflict(MSG.meetingIsOver);
    // The spec's chat line first (spec part 2 §4, §7), then the state the room shows.
    await deps.roomChat.say(row, row.hostId, MSG.meetingEndLine);
    await chat.publish(meetingChannelOf(id), { type: 'MEETING-END', data: { meeting_id: id } });
    await deps.events.emit('meeting.ended', { meetingId: id });
    return {};
  }

  return { join, pay, kick, end };
}

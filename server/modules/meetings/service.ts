/**
 * Scheduled paid video calls (spec part 2 §1–§9, decision 0019): the host's calendar calls, the room's
 * calls, and the rules of the room's realtime channel `meeting:<id>` (handed to the chat module, which
 * runs the gateway). The only writer of the meetings tables; money moves through the ledger.
 */
import type { DomainEventHub } from '../../platform/events';
import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { MeetingDetail, MeetingFields, MeetingListEntry } from '../../../common/api/meetings';
import { MSG } from '../../../common/messages';
import {
  CHAT_TEXT_MAX, HISTORY_LINES, meetingChannelOf, userChannelOf, type HistoryMessage, type RealtimeMessage, type RealtimeSender, type SendFrame,
} from '../../../common/realtime';
import { meetingEnd, meetingTip } from '../../../common/rules/meeting';
import type { Config } from '../../config';
import type { EventOutbox } from '../../platform/event-outbox';
import type { Db, Tx } from '../../platform/db/client';
import { realtimePresence } from '../../platform/db/platform-tables';
import type { Principal } from '../../platform/http/auth';
import { appError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../platform/http/errors';
import type { PresenceChange } from '../../platform/realtime/gateway';
import { PRESENCE_STALE_SECONDS } from '../../platform/realtime/presence';
import { people, type AccountsService } from '../accounts';
import { tipMessage, type ChatService, type MeetingRules } from '../chat';
import { InsufficientFunds, platformFee, receivingShard, type Ledger } from '../ledger';
import { isFollowingSql } from '../social';
import { jitsiRoomOf, jitsiToken, JITSI_TOKEN_MARGIN_MS } from './jitsi-token';
import { meetingInvitees, meetingMessages, meetingPresence, meetingRatings, meetingReports, meetings, meetingSaves } from './tables';
import './events';

/** A new meeting may start this much in the past: the form's clock and the server's differ a little. */
export const START_SKEW_MS = 2 * 60_000;
/** A participant may post this many lines in a room inside the window. */
const CHAT_RATE = { lines: 10, windowMs: 10_000 };

type MeetingRow = typeof meetings.$inferSelect;
type InviteeRow = typeof meetingInvitees.$inferSelect;
type ParsedFields = Omit<MeetingFields, 'audience_ids' | 'tip_rules'> & { audience_ids: number[]; tip_rules?: { viewer_min_amount?: number | undefined } };

/** The caller's place in a meeting: its host, an invitee (kicked or not), or neither. */
interface Standing {
  row: MeetingRow;
  host: boolean;
  invitee: InviteeRow | null;
}

export interface MeetingsDeps {
  db: Db;
  accounts: AccountsService;
  ledger: Ledger;
  chat: ChatService;
  log: { warn(obj: object, msg: string): void };
  events: DomainEventHub;
  feePercent: number;
  conference: Config['conference'];
  /** Events that follow a commit at least once (a paid guest told to the host, invitations). */
  outbox: EventOutbox;
  clock?: () => Date;
}

const nameOf = (user: { username: string; fullname: string } | undefined) => (user ? user.fullname || user.username : '');
const iso = (at: Date) => at.toISOString();
const isPaid = (row: MeetingRow, invitee: InviteeRow | null) => invitee !== null && invitee.paid >= row.tip;

/** The ledger legs of a guest's payment to the host: `amount` from the guest, the fee to the platform, the rest to the host. */
function paymentLegs(payerId: number, hostId: number, amount: number, fee: number) {
  const shard = receivingShard(payerId);
  return [
    { account: { userId: payerId, currency: 'CON' as const }, amount: -amount },
    { account: { userId: hostId, currency: 'CON' as const, shard }, amount: amount - fee },
    ...(fee > 0 ? [{ account: { system: 'fees' as const, currency: 'CON' as const, shard }, amount: fee }] : []),
  ];
}

/** A refund of everything a guest paid: the host's wallet and the platform's fee account pay it back. */
function refundLegs(payerId: number, hostId: number, paid: number, fees: number) {
  return [
    { account: { userId: payerId, currency: 'CON' as const }, amount: paid },
    { account: { userId: hostId, currency: 'CON' as const }, amount: -(paid - fees) },
    ...(fees > 0 ? [{ account: { system: 'fees' as const, currency: 'CON' as const, shard: receivingShard(payerId) }, amount: -fees }] : []),
  ];
}

export function createMeetingsService(deps: MeetingsDeps) {
  const { db, accounts, ledger, chat } = deps;
  const clock = deps.clock ?? (() => new Date());
  const instanceId = chat.presenceInstanceId;
  /** This instance's presence writes, one after another: reads of who is in a room wait for them. */
  let presenceWrites: Promise<void> = Promise.resolve();

  // ---------------------------------------------------------------------------------------------
  // Reading meetings and the caller's place in them.

  async function findMeeting(id: number): Promise<MeetingRow> {
    const [row] = await db.select().from(meetings).where(and(eq(meetings.id, id), isNull(meetings.deletedAt)));
    if (!row) throw notFound(MSG.meetingUnavailable);
    return row;
  }

  async function standingOf(id: number, userId: number): Promise<Standing> {
    const row = await findMeeting(id);
    const [invitee] = await db.select().from(meetingInvitees).where(and(eq(meetingInvitees.meetingId, id), eq(meetingInvitees.userId, userId)));
    return { row, host: row.hostId === userId, invitee: invitee ?? null };
  }

  /** The host or an invitee; anyone else is told the meeting is not there (404). */
  async function partyOf(id: number, principal: Principal): Promise<Standing> {
    const standing = await standingOf(id, principal.userId);
    if (!standing.host && !standing.invitee) throw notFound(MSG.meetingUnavailable);
    return standing;
  }

  /** The host alone: an invitee is refused (403), anyone else does not see the meeting (404). */
  async function hostOf(id: number, principal: Principal): Promise<MeetingRow> {
    const standing = await partyOf(id, principal);
    if (!standing.host) throw forbidden(MSG.meetingHostOnly);
    return standing.row;
  }

  /** An invitee still in the call (not kicked) of a meeting that has not ended; the host has nothing to pay himself. */
  function assertGuestInCall(standing: Standing) {
    if (standing.host) throw forbidden(MSG.meetingOwnCall);
    if (standing.invitee?.kickedAt) throw forbidden(MSG.meetingKickedOut);
    if (standing.row.state === 'ended') throw conflict(MSG.meetingIsOver);
  }

  async function inviteesOf(meetingIds: number[]): Promise<InviteeRow[]> {
    if (meetingIds.length === 0) return [];
    return db.select().from(meetingInvitees).where(inArray(meetingInvitees.meetingId, meetingIds)).orderBy(asc(meetingInvitees.invitedAt), asc(meetingInvitees.userId));
  }

  async function detailOf(row: MeetingRow, viewerId: number): Promise<MeetingDetail> {
    const invitees = await inviteesOf([row.id]);
    const [users, host] = await Promise.all([accounts.publicUsers([row.hostId, ...invitees.map((i) => i.userId)]), accounts.mailContact(row.hostId)]);
    const hostUser = users.get(row.hostId);
    return {
      id: row.id,
      title: row.title,
      pwd: row.pwd,
      state: row.state,
      start_time: iso(row.startTime),
      end_time: iso(row.endTime),
      timezone: row.timezone,
      tip_rule: { viewer_min_amount: row.tip },
      audience_ids: invitees.map((i) => i.userId),
      participants: invitees.map((i) => ({ id: i.userId, first_name: nameOf(users.get(i.userId)), avatar: users.get(i.userId)?.avatar ?? null })),
      creator: { id: row.hostId, first_name: nameOf(hostUser), email: host?.email ?? '', avatar: hostUser?.avatar ?? null },
      host: row.hostId === viewerId,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // The form: create, update, delete.

  /** Every invitee must follow the host (spec part 2 §6: follower selection is limited to the host's followers). */
  async function assertFollowers(hostId: number, ids: number[]) {
    const rows = await db.select({ id: people.id }).from(people)
      .where(and(inArray(people.id, ids), eq(people.accountStatus, 'active'), isFollowingSql(people.id, hostId)));
    if (rows.length !== ids.length) throw forbidden(MSG.meetingInviteFollowersOnly);
  }

  function timesOf(fields: ParsedFields, isNew: boolean) {
    const start = new Date(fields.start_time);
    if (Number.isNaN(start.getTime())) throw badRequest(MSG.validDateTime, 'start_time');
    if (isNew && start.getTime() < clock().getTime() - START_SKEW_MS) throw badRequest(MSG.validDateTime, 'start_time');
    return { startTime: start, endTime: meetingEnd(start) };
  }

  function columnsOf(fields: ParsedFields, isNew: boolean) {
    return {
      title: fields.title,
      pwd: fields.pwd ?? '',
      timezone: fields.timezone ?? '',
      tip: meetingTip(fields.tip_rules?.viewer_min_amount),
      ...timesOf(fields, isNew),
    };
  }

  const invitationOf = (row: MeetingRow, userIds: number[]) => ({ meetingId: row.id, hostId: row.hostId, userIds, title: row.title, startTime: iso(row.startTime) });

  /** Newly invited people hear of it at least once (the notifications module tells them): written in the invitation's transaction. */
  async function writeInvited(tx: Tx, row: MeetingRow, userIds: number[]) {
    if (userIds.length > 0) await deps.outbox.write(tx, 'meeting.invited', invitationOf(row, userIds));
  }

  /** After the commit of writeInvited. */
  async function tellInvited(row: MeetingRow, userIds: number[]) {
    if (userIds.length > 0) await deps.outbox.afterCommit('meeting.invited', invitationOf(row, userIds));
  }

  /**
   * A call that never went live gave its paying guests nothing: removing them, or deleting the call,
   * pays back everything they paid, in the caller's transaction. Once live, payments stay (the call happened).
   */
  async function refundBeforeStart(tx: Tx, row: MeetingRow, invitees: InviteeRow[]) {
    if (row.state !== 'scheduled') return;
    for (const invitee of invitees) {
      if (invitee.paid <= 0) continue;
      await ledger.transfer({
        kind: 'refund',
        idempotencyKey: `meeting:${row.id}:refund:${invitee.userId}:${invitee.invitedAt.getTime()}`,
        fromUserId: row.hostId,
        toUserId: invitee.userId,
        amount: invitee.paid,
        currency: 'CON',
        details: { meeting_id: row.id, fee: invitee.feesPaid },
        legs: refundLegs(invitee.userId, row.hostId, invitee.paid, invitee.feesPaid),
      }, tx);
      await tx.update(meetingInvitees).set({ paid: 0, feesPaid: 0 }).where(and(eq(meetingInvitees.meetingId, row.id), eq(meetingInvitees.userId, invitee.userId)));
    }
  }

  /** A host whose wallet cannot cover the refunds keeps the call as it was. */
  async function refusingShortRefunds<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof InsufficientFunds) throw conflict(MSG.meetingRefundShort);
      throw error;
    }
  }

  async function create(principal: Principal, fields: ParsedFields): Promise<number> {
    const columns = columnsOf(fields, true);
    await assertFollowers(principal.userId, fields.audience_ids);
    const row = await db.transaction(async (tx) => {
      const [created] = await tx.insert(meetings).values({ hostId: principal.userId, ...columns }).returning();
      await tx.insert(meetingInvitees).values(fields.audience_ids.map((userId) => ({ meetingId: created!.id, userId })));
      await writeInvited(tx, created!, fields.audience_ids);
      return created!;
    });
    await tellInvited(row, fields.audience_ids);
    return row.id;
  }

  async function update(id: number, principal: Principal, fields: ParsedFields): Promise<number> {
    const current = await hostOf(id, principal);
    if (current.state === 'ended') throw conflict(MSG.meetingIsOver);
    const columns = columnsOf(fields, false);
    await assertFollowers(principal.userId, fields.audience_ids);
    await ledger.gather(current.hostId, 'CON');
    const { row, added } = await refusingShortRefunds(() => db.transaction(async (tx) => {
      const [updated] = await tx.update(meetings).set(columns).where(and(eq(meetings.id, id), isNull(meetings.deletedAt))).returning();
      const before = await tx.select().from(meetingInvitees).where(eq(meetingInvitees.meetingId, id));
      const removed = before.filter((invitee) => !fields.audience_ids.includes(invitee.userId));
      const added = fields.audience_ids.filter((userId) => !before.some((invitee) => invitee.userId === userId));
      if (removed.length > 0) {
        await refundBeforeStart(tx, current, removed);
        await tx.delete(meetingInvitees).where(and(eq(meetingInvitees.meetingId, id), inArray(meetingInvitees.userId, removed.map((r) => r.userId))));
      }
      if (added.length > 0) await tx.insert(meetingInvitees).values(added.map((userId) => ({ meetingId: id, userId })));
      await writeInvited(tx, updated!, added);
      return { row: updated!, added };
    }));
    await chat.recheckChannel(meetingChannelOf(id));
    await tellInvited(row, added);
    return id;
  }

  async function remove(id: number, principal: Principal) {
    const row = await hostOf(id, principal);
    await ledger.gather(row.hostId, 'CON');
    await refusingShortRefunds(() => db.transaction(async (tx) => {
      const deleted = await tx.update(meetings).set({ deletedAt: clock() }).where(and(eq(meetings.id, id), isNull(meetings.deletedAt))).returning({ id: meetings.id });
      if (deleted.length > 0) await refundBeforeStart(tx, row, await tx.select().from(meetingInvitees).where(eq(meetingInvitees.meetingId, id)));
    }));
    if (row.state === 'live') await chat.publish(meetingChannelOf(id), { type: 'MEETING-END', data: { meeting_id: id } });
    await chat.recheckChannel(meetingChannelOf(id));
    await deps.events.emit('meeting.ended', { meetingId: id });
    return { message: MSG.meetingDeleted };
  }

  /** The caller's meetings, hosting and invited, starting inside the window. */
  async function list(principal: Principal, window: { from?: string | undefined; to?: string | undefined }): Promise<MeetingListEntry[]> {
    const now = clock().getTime();
    const from = window.from ? new Date(window.from) : new Date(now - 31 * 86_400_000);
    const to = window.to ? new Date(window.to) : new Date(now + 92 * 86_400_000);
    const me = principal.userId;
    const rows = await db.select({ row: meetings, following: sql<boolean>`${isFollowingSql(me, meetings.hostId)}` }).from(meetings)
      .where(and(
        isNull(meetings.deletedAt), gte(meetings.startTime, from), lte(meetings.startTime, to),
        or(eq(meetings.hostId, me), sql`exists (select 1 from ${meetingInvitees} i where i.meeting_id = ${meetings.id} and i.user_id = ${me})`),
      ))
      .orderBy(asc(meetings.startTime), asc(meetings.id)).limit(500);
    const invitees = await inviteesOf(rows.map((r) => r.row.id));
    const hosts = await accounts.publicUsers(rows.map((r) => r.row.hostId));
    await db.update(meetingInvitees).set({ seenAt: clock() }).where(and(eq(meetingInvitees.userId, me), isNull(meetingInvitees.seenAt)));
    return rows.map(({ row, following }) => ({
      meeting_id: row.id,
      stream_id: row.id,
      start_time: iso(row.startTime),
      end_time: iso(row.endTime),
      title: row.title,
      pwd: row.pwd,
      state: row.state,
      is_creator: row.hostId === me,
      creator_user_id: row.hostId,
      creator_sname: nameOf(hosts.get(row.hostId)),
      creator_avatar: hosts.get(row.hostId)?.avatar ?? null,
      is_following: Boolean(following),
      audience_ids: invitees.filter((i) => i.meetingId === row.id).map((i) => i.userId),
    }));
  }

  /** Invitations the calendar has not shown yet, to calls that are neither deleted nor over. */
  async function newInvitations(principal: Principal): Promise<number> {
    const [row] = await db.select({ n: count() }).from(meetingInvitees).innerJoin(meetings, eq(meetings.id, meetingInvitees.meetingId)).where(and(
      eq(meetingInvitees.userId, principal.userId), isNull(meetingInvitees.seenAt), isNull(meetingInvitees.kickedAt),
      isNull(meetings.deletedAt), sql`${meetings.state} <> 'ended'`, gt(meetings.endTime, clock()),
    ));
    return row?.n ?? 0;
  }

  // ---------------------------------------------------------------------------------------------
  // Who is in the room (decision 0010: counted per instance in the database).

  /** The people with a socket on the room's channel: this instance's rows, and other instances' while they are alive. */
  async function presentIds(meetingId: number): Promise<number[]> {
    await presenceWrites;
    const channel = meetingChannelOf(meetingId);
    const rows = await db.selectDistinct({ userId: meetingPresence.userId }).from(meetingPresence).where(and(
      eq(meetingPresence.meetingId, meetingId),
      or(
        eq(meetingPresence.instanceId, instanceId),
        sql`exists (select 1 from ${realtimePresence} rp where rp.channel = ${channel} and rp.instance_id = ${meetingPresence.instanceId}
          and rp.updated_at > now() - make_interval(secs => ${PRESENCE_STALE_SECONDS}))`,
      ),
    ));
    return rows.map((r) => r.userId);
  }

  async function participantsMessage(meetingId: number): Promise<RealtimeMessage> {
    const row = await findMeeting(meetingId);
    const present = await presentIds(meetingId);
    const invitees = new Map((await inviteesOf([meetingId])).map((i) => [i.userId, i]));
    const users = await accounts.publicUsers(present);
    const inRoom = present.filter((userId) => userId === row.hostId || (invitees.has(userId) && !invitees.get(userId)!.kickedAt))
      .sort((a, b) => Number(b === row.hostId) - Number(a === row.hostId) || a - b);
    return {
      type: 'PARTICIPANTS',
      data: {
        meeting_id: meetingId,
        host_present: inRoom.includes(row.hostId),
        participants: inRoom.map((userId) => ({
          user_id: userId,
          name: nameOf(users.get(userId)),
          avatar: users.get(userId)?.avatar ?? null,
          is_host: userId === row.hostId,
          paid: userId === row.hostId || isPaid(row, invitees.get(userId) ?? null),
        })),
      },
    };
  }

  async function publishParticipants(meetingId: number) {
    try {
      await chat.publish(meetingChannelOf(meetingId), await participantsMessage(meetingId));
    } catch (error) {
      // A deleted meeting has no room to tell.
      if (!(error instanceof Error && 'status' in error && error.status === 404)) throw error;
    }
  }

  /** The host's first arrival opens the call. */
  const goLive = (row: MeetingRow) =>
    row.state === 'scheduled' ? db.update(meetings).set({ state: 'live' }).where(and(eq(meetings.id, row.id), eq(meetings.state, 'scheduled'))) : Promise.resolve();

  // ---------------------------------------------------------------------------------------------
  // The room's calls.

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

  async function senderOf(row: MeetingRow, userId: number): Promise<RealtimeSender> {
    const user = (await accounts.publicUsers([userId])).get(userId);
    return { name: nameOf(user), user_id: userId, avatar: user?.avatar ?? null, is_priority: false, is_owner: userId === row.hostId };
  }

  /** A chat line of the room: stored (for the history), then published. */
  async function say(row: MeetingRow, userId: number, text: string) {
    const [stored] = await db.insert(meetingMessages).values({ meetingId: row.id, userId, text }).returning();
    await chat.publish(meetingChannelOf(row.id), {
      type: 'COMMENT', text, sender: await senderOf(row, userId), chatTime: iso(stored!.createdAt), timetoken: String(stored!.id),
    });
  }

  async function end(id: number, principal: Principal) {
    const row = await hostOf(id, principal);
    const ended = await db.update(meetings).set({ state: 'ended', endedAt: clock() })
      .where(and(eq(meetings.id, id), sql`${meetings.state} <> 'ended'`)).returning();
    if (ended.length === 0) throw conflict(MSG.meetingIsOver);
    // The spec's chat line first (spec part 2 §4, §7), then the state the room shows.
    await say(row, row.hostId, MSG.meetingEndLine);
    await chat.publish(meetingChannelOf(id), { type: 'MEETING-END', data: { meeting_id: id } });
    await deps.events.emit('meeting.ended', { meetingId: id });
    return {};
  }

  async function rate(id: number, principal: Principal, rating: number) {
    const { row, host } = await partyOf(id, principal);
    if (host) throw forbidden(MSG.meetingOwnCall);
    if (row.state !== 'ended') throw conflict(MSG.meetingNotOverYet);
    await db.insert(meetingRatings).values({ meetingId: id, userId: principal.userId, rating })
      .onConflictDoUpdate({ target: [meetingRatings.meetingId, meetingRatings.userId], set: { rating, createdAt: sql`now()` } });
    return {};
  }

  async function report(id: number, principal: Principal, input: { type: (typeof meetingReports.$inferInsert)['type']; user_comment?: string | undefined }) {
    const { host } = await partyOf(id, principal);
    if (host) throw forbidden(MSG.meetingOwnCall);
    await db.insert(meetingReports).values({ meetingId: id, reporterId: principal.userId, type: input.type, comment: input.user_comment ?? '' });
    return { message: MSG.complaintFiled };
  }

  async function save(id: number, principal: Principal, saved: boolean) {
    const { host } = await partyOf(id, principal);
    if (host) throw forbidden(MSG.meetingOwnCall);
    if (saved) await db.insert(meetingSaves).values({ meetingId: id, userId: principal.userId }).onConflictDoNothing();
    else await db.delete(meetingSaves).where(and(eq(meetingSaves.meetingId, id), eq(meetingSaves.userId, principal.userId)));
    return { saved };
  }

  // ---------------------------------------------------------------------------------------------
  // The room's channel (handed to the chat module).

  /** The host and invited, not-kicked people of a meeting that has not ended. */
  async function roomMember(meetingId: number, principal: Principal): Promise<Standing> {
    const standing = await standingOf(meetingId, principal.userId);
    if (!standing.host && !standing.invitee) throw forbidden(MSG.meetingUnavailable);
    if (standing.invitee?.kickedAt) throw forbidden(MSG.meetingKickedOut);
    if (standing.row.state === 'ended') throw conflict(MSG.meetingIsOver);
    return standing;
  }

  async function history(meetingId: number): Promise<HistoryMessage[]> {
    const rows = await db.select().from(meetingMessages).where(eq(meetingMessages.meetingId, meetingId)).orderBy(desc(meetingMessages.id)).limit(HISTORY_LINES);
    if (rows.length === 0) return [];
    const row = await findMeeting(meetingId);
    const users = await accounts.publicUsers(rows.map((r) => r.userId));
    return rows.reverse().map((r) => ({
      type: 'COMMENT' as const,
      text: r.text,
      sender: { name: nameOf(users.get(r.userId)), user_id: r.userId, avatar: users.get(r.userId)?.avatar ?? null, is_priority: false, is_owner: r.userId === row.hostId },
      chatTime: iso(r.createdAt),
      timetoken: String(r.id),
    }));
  }

  async function comment(row: MeetingRow, principal: Principal, text: string) {
    const trimmed = text.trim();
    if (trimmed === '') throw badRequest(MSG.leaveMessage, 'text');
    const [recent] = await db.select({ n: count() }).from(meetingMessages).where(and(
      eq(meetingMessages.meetingId, row.id), eq(meetingMessages.userId, principal.userId), gt(meetingMessages.createdAt, new Date(Date.now() - CHAT_RATE.windowMs)),
    ));
    if ((recent?.n ?? 0) >= CHAT_RATE.lines) throw tooManyRequests(MSG.chatTooFast);
    await say(row, principal.userId, [...trimmed].slice(0, CHAT_TEXT_MAX).join(''));
  }

  /**
   * WebRTC signalling: only between two paid participants who are both in the room (the host counts as
   * paid). The signal goes to the target's own user channel, unchanged.
   */
  async function signal(standing: Standing, principal: Principal, frame: Extract<SendFrame, { type: 'SIGNAL' }>) {
    const { row } = standing;
    if (!standing.host && !isPaid(row, standing.invitee)) throw forbidden(MSG.meetingPayFirst);
    const present = await presentIds(row.id);
    if (!present.includes(principal.userId)) throw forbidden(MSG.meetingPeerAbsent);
    if (frame.to === principal.userId || !present.includes(frame.to)) throw forbidden(MSG.meetingPeerAbsent);
    if (frame.to !== row.hostId) {
      const [target] = await db.select().from(meetingInvitees).where(and(eq(meetingInvitees.meetingId, row.id), eq(meetingInvitees.userId, frame.to)));
      if (!target || target.kickedAt || !isPaid(row, target)) throw forbidden(MSG.meetingPeerAbsent);
    }
    await chat.publish(userChannelOf(frame.to), { type: 'SIGNAL', data: { meeting_id: row.id, from: principal.userId, signal: frame.signal } });
  }

  const rules: MeetingRules = {
    async authorizeSubscribe(meetingId, principal) {
      await roomMember(meetingId, principal);
      return { history: await history(meetingId) };
    },

    async handleSend(meetingId, frame, principal) {
      const standing = await roomMember(meetingId, principal);
      if (frame.type === 'SIGNAL') return signal(standing, principal, frame);
      if (frame.type === 'LIKE') {
        await chat.publish(meetingChannelOf(meetingId), { type: 'LIKE', likes: 1, sender: await senderOf(standing.row, principal.userId) });
        return;
      }
      if (frame.type !== 'COMMENT') throw forbidden(MSG.channelNotWritable);
      return comment(standing.row, principal, frame.text);
    },

    onPresenceChange(meetingId, principal, change: PresenceChange) {
      presenceWrites = presenceWrites.then(async () => {
        if (change === 'DISCONNECTED') {
          await db.delete(meetingPresence).where(and(eq(meetingPresence.meetingId, meetingId), eq(meetingPresence.userId, principal.userId), eq(meetingPresence.instanceId, instanceId)));
          return;
        }
        await db.insert(meetingPresence).values({ meetingId, userId: principal.userId, instanceId }).onConflictDoNothing();
        const [row] = await db.select().from(meetings).where(eq(meetings.id, meetingId));
        if (row && row.hostId === principal.userId) await goLive(row);
      }).catch((error: unknown) => deps.log.warn({ err: error, meetingId }, 'meeting presence not written'));
    },

    onPresenceWritten: (meetingId) => publishParticipants(meetingId),
  };

  return {
    create, update, remove, list, newInvitations, join, pay, kick, end, rate, report, save,
    detail: async (id: number, principal: Principal) => detailOf((await partyOf(id, principal)).row, principal.userId),
    /**
     * A meeting as another module's room (toy-device access): its host, whether it ended, and whether the
     * user is an invitee still in the call (not kicked). Null for a meeting that is not there (deleted).
     */
    async roomStanding(meetingId: number, userId: number): Promise<{ hostId: number; ended: boolean; invitee: boolean } | null> {
      const [row] = await db.select().from(meetings).where(and(eq(meetings.id, meetingId), isNull(meetings.deletedAt)));
      if (!row) return null;
      const [invitee] = await db.select().from(meetingInvitees).where(and(eq(meetingInvitees.meetingId, meetingId), eq(meetingInvitees.userId, userId)));
      return { hostId: row.hostId, ended: row.state === 'ended', invitee: Boolean(invitee && !invitee.kickedAt) };
    },
    rules,
    /** A deleted account hosts nothing and is invited nowhere (idempotent: the event may come again). */
    async forgetAccount(userId: number) {
      const hosted = await db.update(meetings).set({ deletedAt: clock() }).where(and(eq(meetings.hostId, userId), isNull(meetings.deletedAt))).returning({ id: meetings.id });
      await db.delete(meetingInvitees).where(eq(meetingInvitees.userId, userId));
      for (const { id } of hosted) await chat.recheckChannel(meetingChannelOf(id));
    },
    /** This instance's people leave every room (the server closes). */
    forgetInstance: async () => {
      await presenceWrites;
      await db.delete(meetingPresence).where(eq(meetingPresence.instanceId, instanceId));
    },
  };
}

export type MeetingsService = ReturnType<typeof createMeetingsService>;

/**
 * The host's calendar: the meeting form (create, update, delete, with the refunds a removal owes), the
 * caller's meetings and new invitations, and a deleted account's meetings. Invitations are written to the
 * event outbox with the meeting (`meeting.invited`: the notifications module tells the invitees).
 */
import { and, asc, count, eq, gt, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { MeetingListEntry } from '../../../common/api/meetings';
import { MSG } from '../../../common/messages';
import { meetingChannelOf } from '../../../common/realtime';
import { meetingEnd, meetingTip } from '../../../common/rules/meeting';
import type { Db, Tx } from '../../platform/db/client';
import type { EventOutbox } from '../../platform/event-outbox';
import type { DomainEventHub } from '../../platform/events';
import type { Principal } from '../../platform/http/auth';
import { badRequest, conflict, forbidden } from '../../platform/http/errors';
import { people, type AccountsService } from '../accounts';
import type { ChatService } from '../chat';
import type { Ledger } from '../ledger';
import { isFollowingSql } from '../social';
import type { Refunds } from './refunds';
import { iso, nameOf, type MeetingRow, type ParsedFields, type Standings } from './standing';
import { meetingInvitees, meetings } from './tables';
import './events';

/** A new meeting may start this much in the past: the form's clock and the server's differ a little. */
export const START_SKEW_MS = 2 * 60_000;

export function createCalendar(deps: {
  db: Db;
  accounts: AccountsService;
  ledger: Ledger;
  chat: ChatService;
  events: DomainEventHub;
  outbox: EventOutbox;
  standings: Standings;
  refunds: Refunds;
  clock: () => Date;
}) {
  const { db, accounts, ledger, chat, clock } = deps;
  const { hostOf, inviteesOf } = deps.standings;
  const { refundBeforeStart, refusingShortRefunds } = deps.refunds;

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

  return {
    create, update, remove, list, newInvitations,

    /** A deleted account hosts nothing and is invited nowhere (idempotent: the event may come again). */
    async forgetAccount(userId: number) {
      const hosted = await db.update(meetings).set({ deletedAt: clock() }).where(and(eq(meetings.hostId, userId), isNull(meetings.deletedAt))).returning({ id: meetings.id });
      await db.delete(meetingInvitees).where(eq(meetingInvitees.userId, userId));
      for (const { id } of hosted) await chat.recheckChannel(meetingChannelOf(id));
    },
  };
}

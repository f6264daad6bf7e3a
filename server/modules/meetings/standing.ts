/** Reading meetings and the caller's place in them: the host, an invitee (kicked or not), or neither. */
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type { MeetingDetail, MeetingFields } from '../../../common/api/meetings';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { conflict, forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { meetingInvitees, meetings } from './tables';

export type MeetingRow = typeof meetings.$inferSelect;
export type InviteeRow = typeof meetingInvitees.$inferSelect;
export type ParsedFields = Omit<MeetingFields, 'audience_ids' | 'tip_rules'> & { audience_ids: number[]; tip_rules?: { viewer_min_amount?: number | undefined } };

/** The caller's place in a meeting: its host, an invitee (kicked or not), or neither. */
export interface Standing {
  row: MeetingRow;
  host: boolean;
  invitee: InviteeRow | null;
}

export const nameOf = (user: { username: string; fullname: string } | undefined) => (user ? user.fullname || user.username : '');
export const iso = (at: Date) => at.toISOString();
export const isPaid = (row: MeetingRow, invitee: InviteeRow | null) => invitee !== null && invitee.paid >= row.tip;

export function createStandings(deps: { db: Db; accounts: AccountsService }) {
  const { db, accounts } = deps;

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

  return {
    findMeeting, standingOf, partyOf, hostOf, assertGuestInCall, inviteesOf, detailOf,

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
  };
}

export type Standings = ReturnType<typeof createStandings>;

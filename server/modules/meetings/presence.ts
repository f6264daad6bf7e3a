/**
 * Who is in a meeting's room (decision 0010: counted per instance in the database): this instance's
 * presence writes, the room's PARTICIPANTS frame, and the host's first arrival opening the call.
 */
import { and, eq, or, sql } from 'drizzle-orm';
import { meetingChannelOf, type RealtimeMessage } from '../../../common/realtime';
import type { Db } from '../../platform/db/client';
import { realtimePresence } from '../../platform/db/platform-tables';
import type { Principal } from '../../platform/http/auth';
import type { PresenceChange } from '../../platform/realtime/gateway';
import { PRESENCE_STALE_SECONDS } from '../../platform/realtime/presence';
import type { AccountsService } from '../accounts';
import type { ChatService } from '../chat';
import { isPaid, nameOf, type MeetingRow, type Standings } from './standing';
import { meetingPresence, meetings } from './tables';

export function createRoomPresence(deps: {
  db: Db;
  accounts: AccountsService;
  chat: ChatService;
  standings: Standings;
  log: { warn(obj: object, msg: string): void };
}) {
  const { db, accounts, chat } = deps;
  const { findMeeting, inviteesOf } = deps.standings;
  const instanceId = chat.presenceInstanceId;
  /** This instance's presence writes, one after another: reads of who is in a room wait for them. */
  let presenceWrites: Promise<void> = Promise.resolve();

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

  return {
    presentIds,
    publishParticipants,
    goLive,

    /** A socket joined or left the room's channel on this instance: written in order; the host's arrival opens the call. */
    onPresenceChange(meetingId: number, principal: Principal, change: PresenceChange) {
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

    /** This instance's people leave every room (the server closes). */
    forgetInstance: async () => {
      await presenceWrites;
      await db.delete(meetingPresence).where(eq(meetingPresence.instanceId, instanceId));
    },
  };
}

export type RoomPresence = ReturnType<typeof createRoomPresence>;

/**
 * The room's realtime channel `meeting:<id>` (its rules handed to the chat module, which runs the
 * gateway): who may subscribe, the room's chat lines and their history, likes, and WebRTC signalling
 * between paid participants.
 */
import { and, count, desc, eq, gt } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import {
  CHAT_TEXT_MAX, HISTORY_LINES, meetingChannelOf, userChannelOf, type HistoryMessage, type RealtimeSender, type SendFrame,
} from '../../../common/realtime';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { badRequest, conflict, forbidden, tooManyRequests } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import type { ChatService, MeetingRules } from '../chat';
import type { RoomPresence } from './presence';
import { iso, isPaid, nameOf, type MeetingRow, type Standing, type Standings } from './standing';
import { meetingInvitees, meetingMessages } from './tables';

/** A participant may post this many lines in a room inside the window. */
const CHAT_RATE = { lines: 10, windowMs: 10_000 };

export function createRoomChat(deps: { db: Db; accounts: AccountsService; chat: ChatService; standings: Standings; presence: RoomPresence }) {
  const { db, accounts, chat } = deps;
  const { findMeeting, standingOf } = deps.standings;
  const { presentIds } = deps.presence;

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

    onPresenceChange: deps.presence.onPresenceChange,
    onPresenceWritten: (meetingId) => deps.presence.publishParticipants(meetingId),
  };

  return { say, rules };
}

export type RoomChat = ReturnType<typeof createRoomChat>;

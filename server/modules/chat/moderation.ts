/**
 * What a channel's moderators do to its chat (decision 0083): remove a line, approve a held one, time a
 * viewer out of the broadcaster's streams. The broadcaster, the moderators they appointed and platform
 * moderators may; each action is recorded in the audit log. Lines a filter held go to the moderators' own
 * channels (HELD) and to their sender, and their outcome after them (HELD-RESOLVED).
 */
import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { HeldLine } from '../../../common/api/chat';
import { fill, MSG } from '../../../common/messages';
import { priorityChannelOf, type RealtimeMessage, type RealtimeMessageOf, streamChannelOf, userChannelOf } from '../../../common/realtime';
import { recordAudit } from '../../platform/audit/audit';
import type { Db, Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import type { ChannelModerators, StreamReads } from '../streams';
import type { EmotesService } from './emotes';
import { commentOf } from './sender';
import { chatMessages, chatTimeouts } from './tables';

type Publish = (channel: string, message: RealtimeMessage) => Promise<void>;
type StoredLine = typeof chatMessages.$inferSelect;
/** Held lines a moderator's list shows at most (the oldest first). */
const HELD_LIST_MAX = 100;

export function createChatModeration(deps: {
  db: Db;
  streamReads: Pick<StreamReads, 'findStream'>;
  moderators: Pick<ChannelModerators, 'mayModerateChannel' | 'assertModerates' | 'appointedIds'>;
  accounts: Pick<AccountsService, 'publicUsers' | 'isActive'>;
  emotes: Pick<EmotesService, 'imagesOf'>;
  publish: Publish;
}) {
  const { db } = deps;

  /** The broadcaster, their appointed moderators and the line's sender: who sees a held line and its outcome. */
  async function toHeldAudience(ownerId: number, senderId: number, message: RealtimeMessage) {
    const audience = new Set([ownerId, senderId, ...(await deps.moderators.appointedIds(ownerId))]);
    await Promise.all([...audience].map((userId) => deps.publish(userChannelOf(userId), message)));
  }

  /** The stream, after checking the caller moderates its owner's chat. */
  async function moderatedStream(streamId: number, principal: Principal) {
    const row = await deps.streamReads.findStream(streamId);
    await deps.moderators.assertModerates(principal, row.userId);
    return row;
  }

  /** Moves a line of the stream from `from` to `to`, recorded as the moderator's `action`; 404 when it is not there (or no longer). */
  async function moveLine(streamId: number, principal: Principal, timetoken: string, from: StoredLine['status'][], to: StoredLine['status'], action: 'chat.line-delete' | 'chat.line-approve') {
    const row = await moderatedStream(streamId, principal);
    const line = await db.transaction(async (tx) => {
      const [moved] = await tx.update(chatMessages).set({ status: to })
        .where(and(eq(chatMessages.id, Number(timetoken)), eq(chatMessages.streamId, streamId), eq(chatMessages.type, 'COMMENT'),
          inArray(chatMessages.status, from)))
        .returning();
      if (!moved) throw notFound(MSG.chatLineUnknown);
      await recordAudit(tx, {
        actorId: principal.userId, action, targetType: 'stream', targetId: streamId,
        before: { line_id: moved.id, user_id: moved.userId, text: moved.text, status: from.length === 1 ? from[0] : 'shown or held' }, after: { status: to },
      });
      return moved;
    });
    return { row, line };
  }

  return {
    /** Whether the caller moderates the stream's chat, and then its held lines, oldest first. */
    async state(streamId: number, principal: Principal | null): Promise<{ moderator: boolean; held: HeldLine[] }> {
      const row = await deps.streamReads.findStream(streamId);
      if (!principal || !(await deps.moderators.mayModerateChannel(principal, row.userId))) return { moderator: false, held: [] };
      const lines = await db.select().from(chatMessages)
        .where(and(eq(chatMessages.streamId, streamId), eq(chatMessages.type, 'COMMENT'), eq(chatMessages.status, 'held')))
        .orderBy(asc(chatMessages.id)).limit(HELD_LIST_MAX);
      const [people, images] = await Promise.all([
        deps.accounts.publicUsers(lines.map((line) => line.userId)),
        deps.emotes.imagesOf(lines.flatMap((line) => line.emotes ?? [])),
      ]);
      return {
        moderator: true,
        held: lines.map((line) => ({ priority: line.priority, line: commentOf(line, people, row.userId, images) })),
      };
    },

    /** A line a filter held was stored: its moderators and its sender are told. */
    async announceHeld(ownerId: number, streamId: number, priority: boolean, line: RealtimeMessageOf<'COMMENT'>) {
      await toHeldAudience(ownerId, line.sender.user_id, { type: 'HELD', data: { stream_id: streamId, priority, line } });
    },

    async deleteLine(streamId: number, principal: Principal, timetoken: string): Promise<void> {
      const { row, line } = await moveLine(streamId, principal, timetoken, ['shown', 'held'], 'removed', 'chat.line-delete');
      const removed = { type: 'LINE-REMOVED', data: { stream_id: streamId, timetoken } } as const;
      await deps.publish(line.priority ? priorityChannelOf(streamId) : streamChannelOf(streamId), removed);
      await toHeldAudience(row.userId, line.userId, { type: 'HELD-RESOLVED', data: { stream_id: streamId, timetoken, approved: false } });
    },

    async approveLine(streamId: number, principal: Principal, timetoken: string): Promise<void> {
      const { row, line } = await moveLine(streamId, principal, timetoken, ['held'], 'shown', 'chat.line-approve');
      const [people, images] = await Promise.all([deps.accounts.publicUsers([line.userId]), deps.emotes.imagesOf(line.emotes ?? [])]);
      await deps.publish(line.priority ? priorityChannelOf(streamId) : streamChannelOf(streamId), commentOf(line, people, row.userId, images));
      await toHeldAudience(row.userId, line.userId, { type: 'HELD-RESOLVED', data: { stream_id: streamId, timetoken, approved: true } });
    },

    /** No line from the viewer on any of the broadcaster's streams for `minutes` (a later time-out replaces it). */
    async timeOut(streamId: number, principal: Principal, userId: number, minutes: number): Promise<Date> {
      const row = await moderatedStream(streamId, principal);
      if (userId === row.userId || (await deps.moderators.appointedIds(row.userId)).includes(userId)) throw forbidden(MSG.cannotTimeOutModerator);
      if (!(await deps.accounts.isActive(userId))) throw notFound(MSG.userNotFound);
      const until = new Date(Date.now() + minutes * 60_000);
      await db.transaction(async (tx) => {
        await tx.insert(chatTimeouts).values({ ownerId: row.userId, userId, until }).onConflictDoUpdate({ target: [chatTimeouts.ownerId, chatTimeouts.userId], set: { until } });
        await recordAudit(tx, { actorId: principal.userId, action: 'chat.time-out', targetType: 'stream', targetId: streamId, after: { user_id: userId, minutes, until: until.toISOString() } });
      });
      return until;
    },

    /** In a line's transaction: refuses a viewer timed out of the broadcaster's chat. */
    async assertNotTimedOut(tx: Executor, ownerId: number, userId: number): Promise<void> {
      const [timeout] = await tx.select({ until: chatTimeouts.until }).from(chatTimeouts)
        .where(and(eq(chatTimeouts.ownerId, ownerId), eq(chatTimeouts.userId, userId), gt(chatTimeouts.until, new Date())));
      if (timeout) throw forbidden(fill(MSG.chatTimedOut, { minutes: Math.ceil((timeout.until.getTime() - Date.now()) / 60_000) }));
    },
  };
}

export type ChatModeration = ReturnType<typeof createChatModeration>;

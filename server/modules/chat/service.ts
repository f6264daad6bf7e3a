/**
 * Chat and likes on a stream: the server validates what clients ask for, stores it and publishes it.
 * Clients send COMMENT and LIKE only; every other type is published by services.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import { CHAT_TEXT_MAX, HISTORY_LINES, type RealtimeMessage, type SendFrame, streamChannelOf } from '../../../common/realtime';
import type { Db, Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { AppError, badRequest, forbidden, notFound, unauthorized } from '../../platform/http/errors';
import type { AccountsService } from '../accounts/service';
import type { StreamsService, Viewer } from '../streams/service';
import { streamViews } from '../streams/tables';
import { parseChannel } from './channels';
import { chatMessages } from './tables';

export const LIKE_LIMIT_REACHED = 'You have reached the Like limit';

type Publish = (channel: string, message: RealtimeMessage) => Promise<void>;

export function createChatService(deps: { db: Db; streams: StreamsService; accounts: AccountsService; publish: Publish; likeLimit: number }) {
  const { db } = deps;

  async function senders(userIds: number[], ownerId: number) {
    const users = await deps.accounts.publicUsers([...new Set(userIds)]);
    return (userId: number) => {
      const user = users.get(userId);
      return {
        name: user ? user.fullname || user.username : '',
        user_id: userId,
        avatar: user?.avatar ?? null,
        is_priority: false,
        is_owner: userId === ownerId,
      };
    };
  }

  async function history(streamId: number, ownerId: number): Promise<RealtimeMessage[]> {
    const rows = await db.select().from(chatMessages)
      .where(and(eq(chatMessages.streamId, streamId), eq(chatMessages.type, 'COMMENT')))
      .orderBy(desc(chatMessages.id)).limit(HISTORY_LINES);
    const senderOf = await senders(rows.map((r) => r.userId), ownerId);
    return rows.reverse().map((r) => ({
      type: 'COMMENT',
      text: r.text,
      sender: senderOf(r.userId),
      chatTime: r.createdAt.toISOString(),
      timetoken: String(r.id),
    }));
  }

  /** Likes this user gave the stream: realtime likes stored here, or those saved by leave-stream if more. */
  async function likesGiven(tx: Executor, streamId: number, userId: number): Promise<number> {
    const [live] = await tx.select({ n: sql<number>`count(*)::int` }).from(chatMessages)
      .where(and(eq(chatMessages.streamId, streamId), eq(chatMessages.userId, userId), eq(chatMessages.type, 'LIKE')));
    const [saved] = await tx.select({ n: sql<number>`coalesce(sum(${streamViews.likes}), 0)::int` }).from(streamViews)
      .where(and(eq(streamViews.streamId, streamId), eq(streamViews.userId, userId)));
    return Math.max(live?.n ?? 0, saved?.n ?? 0);
  }

  async function comment(streamId: number, ownerId: number, principal: Principal, text: string) {
    const trimmed = text.trim();
    if (trimmed === '') throw badRequest('Please leave a message', 'text');
    const cut = [...trimmed].slice(0, CHAT_TEXT_MAX).join('');
    const [row] = await db.insert(chatMessages).values({ streamId, userId: principal.userId, type: 'COMMENT', text: cut })
      .returning({ id: chatMessages.id, createdAt: chatMessages.createdAt });
    const senderOf = await senders([principal.userId], ownerId);
    await deps.publish(streamChannelOf(streamId), {
      type: 'COMMENT',
      text: cut,
      sender: senderOf(principal.userId),
      chatTime: row!.createdAt.toISOString(),
      timetoken: String(row!.id),
    });
  }

  async function like(streamId: number, ownerId: number, principal: Principal) {
    if (principal.userId === ownerId) throw forbidden('You cannot like your own stream.');
    await db.transaction(async (tx) => {
      // One viewer's likes on one stream are counted one at a time, on every instance.
      await tx.execute(sql`select pg_advisory_xact_lock(${streamId}::int, ${principal.userId}::int)`);
      if ((await likesGiven(tx, streamId, principal.userId)) + 1 >= deps.likeLimit) {
        throw new AppError(429, 'like_limit', LIKE_LIMIT_REACHED);
      }
      await tx.insert(chatMessages).values({ streamId, userId: principal.userId, type: 'LIKE' });
    });
    const senderOf = await senders([principal.userId], ownerId);
    await deps.publish(streamChannelOf(streamId), { type: 'LIKE', likes: 1, sender: senderOf(principal.userId) });
  }

  return {
    async authorizeSubscribe(channel: string, viewer: Viewer): Promise<{ history: RealtimeMessage[] }> {
      const parsed = parseChannel(channel);
      if (!parsed) throw notFound('No such channel.');
      if (parsed.kind === 'user') {
        if (viewer.principal?.userId !== parsed.userId) throw forbidden();
        return { history: [] };
      }
      const row = await deps.streams.lookup(parsed.streamId, viewer);
      return { history: await history(row.id, row.userId) };
    },

    async handleSend(channel: string, frame: SendFrame, viewer: Viewer): Promise<void> {
      const parsed = parseChannel(channel);
      if (!parsed || parsed.kind !== 'stream') throw forbidden('Messages cannot be sent on this channel.');
      if (frame.type !== 'COMMENT' && frame.type !== 'LIKE') throw forbidden('This message type cannot be sent.');
      const principal = viewer.principal;
      if (!principal) throw unauthorized(MSG.notLoggedIn);
      const row = await deps.streams.lookup(parsed.streamId, viewer);
      if (frame.type === 'LIKE') return like(row.id, row.userId, principal);
      if (!row.chatEnabled) throw forbidden('Chat is disabled for this stream.');
      return comment(row.id, row.userId, principal, frame.text ?? '');
    },

    /** A service-originated message on a stream's channel (STREAM-END, STREAM-OPTIONS, BLOCKED...). */
    publishToStream: (streamId: number, message: RealtimeMessage) => deps.publish(streamChannelOf(streamId), message),
  };
}

export type ChatService = ReturnType<typeof createChatService>;

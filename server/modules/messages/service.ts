/**
 * Direct messages (decision 0086): sending (one transaction: the conversation and both members' rows, the
 * message, the recipient's unread count), threads, the conversation list, reads, typing, blocks and
 * reports. The only writer of the messages tables; pages hear of changes on their members' own channels.
 */
import { and, count, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { ConversationSummary, DirectMessage, MessagePartner } from '../../../common/api/messages';
import { fill, MSG } from '../../../common/messages';
import { DM, type MessageAudience } from '../../../common/rules/messages';
import type { COMPLAINT_TYPES } from '../../../common/api/stream-interactions';
import { userChannelOf, type RealtimeMessage } from '../../../common/realtime';
import { lockForTransaction } from '../../platform/db/advisory-lock';
import type { Db, Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { forbidden, notFound, tooManyRequests } from '../../platform/http/errors';
import { escapeLike } from '../../platform/db/like';
import { people, type AccountsService } from '../accounts';
import type { Viewer } from '../streams';
import type { MessageMedia } from './media';
import { isCreator, type WritePermission } from './permission';
import { conversationMembers, conversations, directMessages, messageBlocks, messageReports, messageSettings } from './tables';

type Publish = (channel: string, message: RealtimeMessage) => Promise<void>;
type MessageRow = typeof directMessages.$inferSelect;
type SignedIn = Viewer & { principal: Principal };

const memberOf = (userId: number, partnerId: number) => and(eq(conversationMembers.userId, userId), eq(conversationMembers.partnerId, partnerId));

export function createMessages(deps: {
  db: Db;
  accounts: Pick<AccountsService, 'publicUsers' | 'isActive' | 'createdAt'>;
  permission: WritePermission;
  /** How messages show their media, and the sender's vault medium a message may carry (decision 0088). */
  media: MessageMedia;
  vaultMedium: (ownerId: number, mediaId: number) => Promise<number>;
  publish: Publish;
  log: { warn(obj: object, msg: string): void };
  now?: () => number;
}) {
  const { db, permission } = deps;
  const now = deps.now ?? Date.now;
  /** The last DM-TYPING passed on per pair on this instance: a page types in bursts. */
  const typingSent = new Map<string, number>();

  /** An active member as a partner; 404 for an unknown, deleted or suspended one. */
  async function partner(userId: number): Promise<MessagePartner> {
    const [found, active] = await Promise.all([deps.accounts.publicUsers([userId]), deps.accounts.isActive(userId)]);
    const user = found.get(userId);
    if (!user || !active) throw notFound(MSG.userNotFound);
    return { user_id: userId, username: user.username, avatar: user.avatar };
  }

  async function unreadOf(userId: number, exec: Executor = db): Promise<number> {
    const [row] = await exec.select({ n: sql<number>`coalesce(sum(${conversationMembers.unread}), 0)::int` }).from(conversationMembers).where(eq(conversationMembers.userId, userId));
    return Number(row?.n ?? 0);
  }

  /** Tells both members' pages; a lost publication is caught up by the page's next look. */
  async function announce(row: MessageRow) {
    try {
      const [message] = await deps.media.present([row], null) as [DirectMessage];
      const [senderUnread, recipientUnread] = await Promise.all([unreadOf(message.sender_id), unreadOf(message.recipient_id)]);
      await deps.publish(userChannelOf(message.recipient_id), { type: 'DM', data: { message, unread: recipientUnread } });
      await deps.publish(userChannelOf(message.sender_id), { type: 'DM', data: { message, unread: senderUnread } });
    } catch (error) {
      deps.log.warn({ err: error, messageId: row.id }, 'a direct message was not announced');
    }
  }

  /** The conversation's id, made with both members' rows when it is the first message. */
  async function conversationFor(tx: Executor, senderId: number, recipientId: number): Promise<{ id: number; started: boolean }> {
    const [lowId, highId] = senderId < recipientId ? [senderId, recipientId] : [recipientId, senderId];
    const [made] = await tx.insert(conversations).values({ lowId, highId, startedBy: senderId }).onConflictDoNothing().returning({ id: conversations.id });
    if (made) {
      await tx.insert(conversationMembers).values([
        { conversationId: made.id, userId: senderId, partnerId: recipientId },
        { conversationId: made.id, userId: recipientId, partnerId: senderId },
      ]);
      return { id: made.id, started: true };
    }
    const [known] = await tx.select({ id: conversations.id }).from(conversations).where(and(eq(conversations.lowId, lowId), eq(conversations.highId, highId)));
    return { id: known!.id, started: false };
  }

  /** Refuses a sender over a limit: messages a minute, and a new account's new conversations a day. */
  async function assertWithinLimits(tx: Executor, senderId: number, senderSince: Date | null, recipientId: number) {
    const [recent] = await tx.select({ n: count() }).from(directMessages)
      .where(and(eq(directMessages.senderId, senderId), gte(directMessages.createdAt, new Date(now() - 60_000))));
    if ((recent?.n ?? 0) >= DM.perMinute) throw tooManyRequests(MSG.messagingTooFast);
    if (!senderSince || now() - senderSince.getTime() >= DM.newAccountMs) return;
    const [existing] = await tx.select({ id: conversationMembers.conversationId }).from(conversationMembers).where(memberOf(senderId, recipientId));
    if (existing) return;
    const [started] = await tx.select({ n: count() }).from(conversations)
      .where(and(eq(conversations.startedBy, senderId), gte(conversations.createdAt, new Date(now() - 24 * 3600_000))));
    if ((started?.n ?? 0) >= DM.newAccountConversations) throw tooManyRequests(fill(MSG.newAccountConversations, { count: DM.newAccountConversations }));
  }

  async function findByKey(exec: Executor, senderId: number, clientKey: string) {
    const [row] = await exec.select().from(directMessages).where(and(eq(directMessages.senderId, senderId), eq(directMessages.clientKey, clientKey)));
    return row;
  }

  return {
    async settings(userId: number): Promise<{ audience: MessageAudience; bulk: boolean }> {
      const [row] = await db.select({ audience: messageSettings.audience, bulk: messageSettings.bulk }).from(messageSettings).where(eq(messageSettings.userId, userId));
      return { audience: row?.audience ?? 'everyone', bulk: row?.bulk ?? true };
    },

    async saveSettings(userId: number, settings: { audience: MessageAudience; bulk: boolean }) {
      await db.insert(messageSettings).values({ userId, ...settings })
        .onConflictDoUpdate({ target: messageSettings.userId, set: { ...settings, updatedAt: new Date() } });
      return settings;
    },

    unread: (userId: number) => unreadOf(userId),

    async send(viewer: SignedIn, input: { user_id: number; text: string; media_id?: number | undefined; price: number; client_key: string }): Promise<DirectMessage> {
      const sender = viewer.principal;
      const shown = async (row: MessageRow) => (await deps.media.present([row], viewer))[0]!;
      const again = await findByKey(db, sender.userId, input.client_key);
      if (again) return shown(again);
      if (input.price > 0 && !isCreator(sender)) throw forbidden(MSG.paidMessagesCreatorsOnly);
      const recipient = await partner(input.user_id);
      const answer = await permission.mayWrite(db, sender, { userId: recipient.user_id, username: recipient.username });
      if (!answer.allowed) throw forbidden(answer.refusal ?? MSG.messagingBlocked);
      const created = await deps.accounts.createdAt(sender.userId);
      const mediaId = input.media_id === undefined ? null : await deps.vaultMedium(sender.userId, input.media_id);
      const row = await db.transaction(async (tx) => {
        // One sender's sends go one at a time, so the limits count every earlier one.
        await lockForTransaction(tx, `dm-send:${sender.userId}`);
        const repeated = await findByKey(tx, sender.userId, input.client_key);
        if (repeated) return repeated;
        await assertWithinLimits(tx, sender.userId, created, recipient.user_id);
        const conversation = await conversationFor(tx, sender.userId, recipient.user_id);
        const [message] = await tx.insert(directMessages).values({
          conversationId: conversation.id, senderId: sender.userId, recipientId: recipient.user_id, body: input.text, clientKey: input.client_key,
          mediaId, price: mediaId === null ? 0 : input.price,
        }).returning();
        const at = message!.createdAt;
        await tx.update(conversationMembers).set({ wrote: true, readId: message!.id, lastMessageAt: at }).where(memberOf(sender.userId, recipient.user_id));
        await tx.update(conversationMembers).set({ unread: sql`${conversationMembers.unread} + 1`, lastMessageAt: at }).where(memberOf(recipient.user_id, sender.userId));
        return message!;
      });
      await announce(row);
      return shown(row);
    },

    async thread(signedIn: SignedIn, input: { user_id: number; before?: number | undefined; limit: number }) {
      const viewer = signedIn.principal;
      const [user] = (await deps.accounts.publicUsers([input.user_id])).entries();
      if (!user || input.user_id === viewer.userId) throw notFound(MSG.userNotFound);
      const shown: MessagePartner = { user_id: input.user_id, username: user[1].username, avatar: user[1].avatar };
      const [mine] = await db.select().from(conversationMembers).where(memberOf(viewer.userId, input.user_id));
      const [theirs] = await db.select({ readId: conversationMembers.readId }).from(conversationMembers).where(memberOf(input.user_id, viewer.userId));
      const rows = mine
        ? await db.select().from(directMessages).where(and(
          eq(directMessages.conversationId, mine.conversationId), isNull(directMessages.deletedAt),
          input.before ? lt(directMessages.id, input.before) : undefined,
        )).orderBy(desc(directMessages.id)).limit(input.limit + 1)
        : [];
      const more = rows.length > input.limit;
      const active = await deps.accounts.isActive(input.user_id);
      const answer = active ? await permission.mayWrite(db, viewer, { userId: input.user_id, username: shown.username }) : { allowed: false, refusal: MSG.messagingBlocked };
      const [block] = await db.select({ at: messageBlocks.createdAt }).from(messageBlocks)
        .where(and(eq(messageBlocks.blockerId, viewer.userId), eq(messageBlocks.blockedId, input.user_id)));
      return {
        partner: shown,
        messages: await deps.media.present(rows.slice(0, input.limit).reverse(), signedIn),
        more,
        partner_read_id: theirs?.readId ?? 0,
        may_write: answer.allowed,
        refusal: answer.refusal,
        blocked_by_me: block !== undefined,
      };
    },

    async list(viewerId: number, input: { search_text?: string | undefined; offset: number; limit: number }): Promise<{ conversations: ConversationSummary[]; total: number }> {
      const named = input.search_text ? sql`and lower(${people.username}) like ${`${escapeLike(input.search_text.toLowerCase())}%`}` : sql``;
      const mine = sql`m.user_id = ${viewerId} and m.last_message_at is not null ${named}`;
      const [{ rows }, counted] = await Promise.all([
        db.execute<{
          partner_id: string | number; username: string; avatar: string | null; unread: number; id: string | number; sender_id: string | number; recipient_id: string | number;
          body: string; created_at: string | Date; media_id: string | number | null; price: number;
        }>(sql`
          select m.partner_id, ${people.username} as username, ${people.avatar} as avatar, m.unread,
            last.id, last.sender_id, last.recipient_id, last.body, last.created_at, last.media_id, last.price
          from ${conversationMembers} m join ${people} on ${people.id} = m.partner_id
          join lateral (select d.id, d.sender_id, d.recipient_id, d.body, d.created_at, d.media_id, d.price from ${directMessages} d
            where d.conversation_id = m.conversation_id and d.deleted_at is null order by d.id desc limit 1) last on true
          where ${mine}
          order by m.last_message_at desc, m.partner_id offset ${input.offset} limit ${input.limit}`),
        db.execute<{ total: number }>(sql`select count(*)::int as total from ${conversationMembers} m join ${people} on ${people.id} = m.partner_id where ${mine}`),
      ]);
      const last = await deps.media.present(rows.map((r) => ({
        id: Number(r.id), senderId: Number(r.sender_id), recipientId: Number(r.recipient_id), body: r.body, createdAt: new Date(r.created_at),
        mediaId: r.media_id === null ? null : Number(r.media_id), price: Number(r.price),
      })), null);
      return {
        total: Number(counted.rows[0]?.total ?? 0),
        conversations: rows.map((r, i) => ({
          partner: { user_id: Number(r.partner_id), username: r.username, avatar: r.avatar },
          unread: Number(r.unread),
          last_message: last[i]!,
        })),
      };
    },

    async read(viewerId: number, partnerId: number, messageId: number): Promise<number> {
      const [message] = await db.select({ conversationId: directMessages.conversationId }).from(directMessages)
        .innerJoin(conversationMembers, and(eq(conversationMembers.conversationId, directMessages.conversationId), eq(conversationMembers.userId, viewerId)))
        .where(and(eq(directMessages.id, messageId), eq(conversationMembers.partnerId, partnerId)));
      if (!message) throw notFound(MSG.messageUnknown);
      const [updated] = await db.update(conversationMembers).set({
        readId: sql`greatest(${conversationMembers.readId}, ${messageId})`,
        unread: sql`(select count(*)::int from ${directMessages} d where d.conversation_id = ${message.conversationId}
          and d.recipient_id = ${viewerId} and d.deleted_at is null and d.id > greatest(${conversationMembers.readId}, ${messageId}))`,
      }).where(memberOf(viewerId, partnerId)).returning({ readId: conversationMembers.readId });
      const unread = await unreadOf(viewerId);
      const frame: RealtimeMessage = { type: 'DM-READ', data: { reader_id: viewerId, partner_id: partnerId, last_read_id: updated?.readId ?? messageId } };
      await Promise.all([deps.publish(userChannelOf(partnerId), frame), deps.publish(userChannelOf(viewerId), frame)])
        .catch((error: unknown) => deps.log.warn({ err: error }, 'a read receipt was not announced'));
      return unread;
    },

    async block(viewerId: number, userId: number, block: boolean): Promise<boolean> {
      if (userId === viewerId) throw forbidden(MSG.cannotMessageYourself);
      if ((await deps.accounts.publicUsers([userId])).size === 0) throw notFound(MSG.userNotFound);
      if (block) await db.insert(messageBlocks).values({ blockerId: viewerId, blockedId: userId }).onConflictDoNothing();
      else await db.delete(messageBlocks).where(and(eq(messageBlocks.blockerId, viewerId), eq(messageBlocks.blockedId, userId)));
      return block;
    },

    async report(reporterId: number, input: { message_id: number; type: (typeof COMPLAINT_TYPES)[number]; user_comment?: string | undefined }) {
      const [message] = await db.select({ senderId: directMessages.senderId, recipientId: directMessages.recipientId }).from(directMessages)
        .where(and(eq(directMessages.id, input.message_id), isNull(directMessages.deletedAt)));
      if (!message || (message.recipientId !== reporterId && message.senderId !== reporterId)) throw notFound(MSG.messageUnknown);
      if (message.senderId === reporterId) throw forbidden(MSG.cannotReportOwnMessage);
      const report = { messageId: input.message_id, reporterId, type: input.type, comment: input.user_comment ?? '', createdAt: new Date() };
      await db.insert(messageReports).values(report)
        .onConflictDoUpdate({ target: [messageReports.messageId, messageReports.reporterId], set: { type: report.type, comment: report.comment, createdAt: report.createdAt } });
    },

    /** Tells `to` that the sender is typing, in a conversation open between them (nothing before the first message). */
    async typing(senderId: number, to: number): Promise<void> {
      const key = `${senderId}:${to}`;
      const last = typingSent.get(key) ?? 0;
      if (now() - last < DM.typingEveryMs / 2) return;
      const [member] = await db.select({ id: conversationMembers.conversationId }).from(conversationMembers).where(memberOf(senderId, to));
      if (!member) return;
      if (await permission.blocked(db, senderId, to)) throw forbidden(MSG.messagingBlocked);
      if (typingSent.size > 10_000) typingSent.clear();
      typingSent.set(key, now());
      // A courtesy: with the bus away it is lost, not refused (the sender's page would show an error for nothing).
      await deps.publish(userChannelOf(to), { type: 'DM-TYPING', data: { user_id: senderId } })
        .catch((error: unknown) => deps.log.warn({ err: error }, 'a typing notice was not passed on'));
    },

    /** A deleted account's settings and blocks go; its messages stay in its partners' conversations. */
    async forgetAccount(userId: number) {
      await db.delete(messageSettings).where(eq(messageSettings.userId, userId));
      await db.delete(messageBlocks).where(eq(messageBlocks.blockerId, userId));
    },
  };
}
export type Messages = ReturnType<typeof createMessages>;

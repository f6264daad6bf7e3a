/**
 * The people a broadcaster appoints to moderate the chat of their streams: they ban, time out, delete and
 * approve lines and edit the chat rules, as the broadcaster does, on that broadcaster's streams alone.
 * Appointing and dismissing are recorded in the audit log. Who moderates a channel is read on every held
 * line and moderator action, through a cache every instance drops when the list changes.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import type { ChatModerator } from '../../../common/api/chat';
import { CHAT_RULES } from '../../../common/rules/chat-filter';
import { fill, MSG } from '../../../common/messages';
import { mayModerate } from '../../../common/rules/moderation';
import { recordAudit } from '../../platform/audit/audit';
import type { ReadCache } from '../../platform/cache/read-cache';
import { lockForTransaction } from '../../platform/db/advisory-lock';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { badRequest, conflict, forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { channelModerators } from './tables';

export function createChannelModerators(deps: { db: Db; accounts: Pick<AccountsService, 'idByUsername' | 'publicUsers'>; cache: ReadCache }) {
  const { db, cache } = deps;
  const tag = (ownerId: number) => `channel-moderators:${ownerId}`;

  const appointedIds = (ownerId: number): Promise<number[]> => cache.get(tag(ownerId), [tag(ownerId)], async () => {
    const rows = await db.select({ id: channelModerators.moderatorId }).from(channelModerators)
      .where(eq(channelModerators.ownerId, ownerId)).orderBy(asc(channelModerators.createdAt), asc(channelModerators.moderatorId));
    return rows.map((row) => row.id);
  });

  async function list(ownerId: number): Promise<ChatModerator[]> {
    const ids = await appointedIds(ownerId);
    const people = await deps.accounts.publicUsers(ids);
    return ids.flatMap((id) => {
      const person = people.get(id);
      return person ? [{ user_id: id, username: person.username, name: person.fullname || person.username, avatar: person.avatar }] : [];
    });
  }

  /** The broadcaster, an appointed moderator, or a platform moderator who may ban viewers anywhere. */
  async function mayModerateChannel(principal: Principal, ownerId: number): Promise<boolean> {
    if (principal.userId === ownerId || mayModerate(principal, 'viewer.ban')) return true;
    return (await appointedIds(ownerId)).includes(principal.userId);
  }

  return {
    list,
    /** The moderators the broadcaster appointed (not the broadcaster), oldest first. */
    appointedIds,
    mayModerateChannel,

    /** 403 unless the caller moderates the broadcaster's chat. */
    async assertModerates(principal: Principal, ownerId: number): Promise<void> {
      if (!(await mayModerateChannel(principal, ownerId))) throw forbidden(MSG.notChatModerator);
    },

    async add(ownerId: number, username: string): Promise<ChatModerator[]> {
      const moderatorId = await deps.accounts.idByUsername(username);
      if (moderatorId === null) throw notFound(MSG.moderatorUnknown);
      if (moderatorId === ownerId) throw badRequest(MSG.moderatorIsYou, 'username');
      await db.transaction(async (tx) => {
        await lockForTransaction(tx, tag(ownerId));
        const [appointed] = await tx.select({ n: count() }).from(channelModerators).where(eq(channelModerators.ownerId, ownerId));
        if ((appointed?.n ?? 0) >= CHAT_RULES.moderatorsMax) throw conflict(fill(MSG.moderatorsTooMany, { max: CHAT_RULES.moderatorsMax }));
        const added = await tx.insert(channelModerators).values({ ownerId, moderatorId }).onConflictDoNothing().returning({ id: channelModerators.moderatorId });
        if (added.length > 0) {
          await recordAudit(tx, { actorId: ownerId, action: 'chat.moderator-add', targetType: 'user', targetId: ownerId, after: { moderator_id: moderatorId } });
        }
      });
      await cache.invalidate([tag(ownerId)]);
      return list(ownerId);
    },

    async remove(ownerId: number, moderatorId: number): Promise<ChatModerator[]> {
      await db.transaction(async (tx) => {
        const removed = await tx.delete(channelModerators)
          .where(and(eq(channelModerators.ownerId, ownerId), eq(channelModerators.moderatorId, moderatorId))).returning({ id: channelModerators.moderatorId });
        if (removed.length > 0) {
          await recordAudit(tx, { actorId: ownerId, action: 'chat.moderator-remove', targetType: 'user', targetId: ownerId, before: { moderator_id: moderatorId } });
        }
      });
      await cache.invalidate([tag(ownerId)]);
      return list(ownerId);
    },
  };
}

export type ChannelModerators = ReturnType<typeof createChannelModerators>;

/**
 * Who may write to whom (decision 0086): never across a block; always in a conversation the recipient has
 * written in; otherwise as the recipient's setting says, and a creator may always write to those who
 * follow or subscribe to them.
 */
import { and, eq, or } from 'drizzle-orm';
import { fill, MSG, type CatalogueText } from '../../../common/messages';
import { canGoLive, canUpload } from '../../../common/permissions';
import type { Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import type { SocialService } from '../social';
import type { SubscriptionsService } from '../subscriptions';
import { conversationMembers, messageBlocks, messageSettings } from './tables';

export interface WriteAnswer {
  allowed: boolean;
  /** Why not, as the page shows it. */
  refusal: CatalogueText | null;
}

const ALLOWED: WriteAnswer = { allowed: true, refusal: null };
const refused = (refusal: CatalogueText): WriteAnswer => ({ allowed: false, refusal });

export const isCreator = (principal: Pick<Principal, 'perms'>) => canGoLive(principal.perms) || canUpload(principal.perms);

export function createWritePermission(deps: {
  social: Pick<SocialService, 'relation'>;
  subscriptions: Pick<SubscriptionsService, 'standing'>;
}) {
  async function follows(fanId: number, creatorId: number) {
    return (await deps.social.relation(fanId, creatorId)).isFollowing;
  }
  async function subscribes(fanId: number, creatorId: number) {
    return (await deps.subscriptions.standing(fanId, creatorId)).subscribed;
  }

  return {
    async blocked(exec: Executor, a: number, b: number): Promise<boolean> {
      const [row] = await exec.select({ at: messageBlocks.createdAt }).from(messageBlocks).where(or(
        and(eq(messageBlocks.blockerId, a), eq(messageBlocks.blockedId, b)),
        and(eq(messageBlocks.blockerId, b), eq(messageBlocks.blockedId, a)),
      )).limit(1);
      return row !== undefined;
    },

    async mayWrite(exec: Executor, sender: Principal, recipient: { userId: number; username: string }): Promise<WriteAnswer> {
      if (sender.userId === recipient.userId) return refused(MSG.cannotMessageYourself);
      if (await this.blocked(exec, sender.userId, recipient.userId)) return refused(MSG.messagingBlocked);
      const [theirs] = await exec.select({ wrote: conversationMembers.wrote }).from(conversationMembers)
        .where(and(eq(conversationMembers.userId, recipient.userId), eq(conversationMembers.partnerId, sender.userId)));
      if (theirs?.wrote) return ALLOWED;
      const [setting] = await exec.select({ audience: messageSettings.audience }).from(messageSettings).where(eq(messageSettings.userId, recipient.userId));
      const audience = setting?.audience ?? 'everyone';
      if (audience === 'everyone') return ALLOWED;
      if (audience === 'followers' ? await follows(sender.userId, recipient.userId) : await subscribes(sender.userId, recipient.userId)) return ALLOWED;
      // A creator writes to their own fans whatever the fans' settings.
      if (isCreator(sender) && ((await follows(recipient.userId, sender.userId)) || (await subscribes(recipient.userId, sender.userId)))) return ALLOWED;
      return refused(fill(audience === 'followers' ? MSG.messagesFromFollowers : MSG.messagesFromSubscribers, { name: recipient.username }));
    },
  };
}
export type WritePermission = ReturnType<typeof createWritePermission>;

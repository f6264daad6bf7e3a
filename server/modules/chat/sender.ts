/** Who said a chat line, as realtime messages name them. */
import type { RealtimeSender } from '../../../common/realtime';
import type { AccountsService } from '../accounts';

export type PublicUsers = Awaited<ReturnType<AccountsService['publicUsers']>>;

export function senderOf(users: PublicUsers, ownerId: number, userId: number, priority: boolean): RealtimeSender {
  const user = users.get(userId);
  return {
    name: user ? user.fullname || user.username : '',
    user_id: userId,
    avatar: user?.avatar ?? null,
    is_priority: priority,
    is_owner: userId === ownerId,
  };
}

/** Who said a chat line, and a stored line, as realtime messages name them. */
import type { RealtimeMessageOf, RealtimeSender } from '../../../common/realtime';
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

/**
 * A stored line (`chat_messages`) as its COMMENT message: its id is the timetoken; `images`, the emotes'
 * images by code, of which the line gets those it used.
 */
export function commentOf(
  line: { id: number; userId: number; text: string; priority: boolean; createdAt: Date; emotes?: string[] | null },
  people: PublicUsers, ownerId: number, images: Readonly<Record<string, string>> = {},
): RealtimeMessageOf<'COMMENT'> {
  const used = (line.emotes ?? []).filter((code) => images[code] !== undefined);
  return {
    type: 'COMMENT',
    text: line.text,
    sender: senderOf(people, ownerId, line.userId, line.priority),
    chatTime: line.createdAt.toISOString(),
    timetoken: String(line.id),
    ...(used.length > 0 ? { emotes: Object.fromEntries(used.map((code) => [code, images[code]!])) } : {}),
  };
}

/**
 * Photos and videos in messages (decision 0088): a message carries one medium of its sender's vault, free
 * or at a price. Its recipient sees the blurred tile until they unlock it; the sender always sees it.
 * The media route asks `standing` (the posts module's `looseMediaRules` hook) at each fetch.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DirectMessage } from '../../../common/api/messages';
import type { Db } from '../../platform/db/client';
import { describeMedium, mediumFacts, type Vault } from '../posts';
import type { Viewer } from '../streams';
import { directMessages, messageUnlocks } from './tables';

export type MessageRow = typeof directMessages.$inferSelect;
type Shown = Pick<MessageRow, 'id' | 'senderId' | 'recipientId' | 'body' | 'createdAt' | 'mediaId' | 'price'>;

/** `view`: the vault's signing of a medium for a viewer; without it (a deliverer with no addresses to give) media are described only. */
export function createMessageMedia(deps: { db: Db; view?: Vault['view'] }) {
  const { db } = deps;

  async function unlockedOf(rows: Shown[]): Promise<Set<number>> {
    const paid = rows.filter((r) => r.mediaId !== null && r.price > 0).map((r) => r.id);
    if (paid.length === 0) return new Set();
    const found = await db.select({ id: messageUnlocks.messageId }).from(messageUnlocks).where(inArray(messageUnlocks.messageId, paid));
    return new Set(found.map((f) => f.id));
  }

  /**
   * Messages as `viewer` sees them: the medium signed for them, open to its sender and, once free or
   * unlocked, to its recipient. Without a viewer (realtime frames, the conversation list) no address is
   * given: a frame goes to pages that sign nothing, and they look the message up.
   */
  async function present(rows: Shown[], viewer: Viewer | null): Promise<DirectMessage[]> {
    const [facts, unlocked] = await Promise.all([mediumFacts(db, rows.flatMap((r) => (r.mediaId === null ? [] : [r.mediaId]))), unlockedOf(rows)]);
    return rows.map((row) => {
      const fact = row.mediaId === null ? undefined : facts.get(row.mediaId);
      const isUnlocked = unlocked.has(row.id);
      const open = row.price === 0 || isUnlocked || viewer?.principal?.userId === row.senderId;
      const media = fact ? (viewer && deps.view ? deps.view(fact, viewer, open) : describeMedium(fact)) : null;
      return {
        id: row.id, sender_id: row.senderId, recipient_id: row.recipientId, text: row.body, time: new Date(row.createdAt).toISOString(),
        media, price: row.mediaId === null ? 0 : row.price, unlocked: isUnlocked,
      };
    });
  }

  return {
    present,

    /** For the media route: the viewer may see the tile of a medium a message brought them, and the medium once free or unlocked. */
    async standing(mediaId: number, viewerId: number): Promise<{ visible: boolean; open: boolean }> {
      const [row] = await db.select({
        visible: sql<boolean>`true`,
        open: sql<boolean>`bool_or(${directMessages.price} = 0 or exists (select 1 from ${messageUnlocks} u where u.message_id = ${directMessages.id} and u.user_id = ${viewerId}))`,
      }).from(directMessages)
        .where(and(eq(directMessages.mediaId, mediaId), eq(directMessages.recipientId, viewerId), isNull(directMessages.deletedAt)))
        .groupBy(directMessages.mediaId);
      return { visible: row !== undefined, open: row?.open === true };
    },
  };
}

export type MessageMedia = ReturnType<typeof createMessageMedia>;

/** Reported direct messages: the console queue's read model, and a moderator's removal (audited, without the text). */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import { recordAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import { notFound } from '../../platform/http/errors';
import { directMessages, messageReports } from './tables';

/** The reports of direct messages, in the shape of the console's queue (the sender owns the message). */
export const directMessageReportsSql = sql`select 'direct-message'::text as kind, r.message_id as item_id, r.reporter_id, r.type, r.comment, r.created_at,
    d.sender_id as owner_id, d.body as preview, null::text as image, case when d.deleted_at is not null then 'deleted' else 'shown' end as item_state
  from ${messageReports} r join ${directMessages} d on d.id = r.message_id`;

export function createMessageModeration(deps: { db: Db }) {
  return {
    /** Removes a message from its conversation (its partners no longer see it); the audit keeps who and whose, not the words. */
    async deleteMessage(actorId: number, messageId: number) {
      await deps.db.transaction(async (tx) => {
        const [row] = await tx.update(directMessages).set({ deletedAt: new Date() })
          .where(and(eq(directMessages.id, messageId), isNull(directMessages.deletedAt)))
          .returning({ senderId: directMessages.senderId, recipientId: directMessages.recipientId });
        if (!row) throw notFound(MSG.messageUnknown);
        await recordAudit(tx, {
          actorId, action: 'direct-message.delete', targetType: 'direct-message', targetId: messageId,
          before: { sender_id: row.senderId, recipient_id: row.recipientId }, after: { deleted: true },
        });
      });
    },
  };
}
export type MessageModeration = ReturnType<typeof createMessageModeration>;

/** The mail_outbox table: every message sent is kept here, whichever transport carried it. */
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/platform-tables';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export type MailTransport = 'outbox' | 'smtp' | 'none';

export async function keepMail(db: Db, message: MailMessage, transport: MailTransport): Promise<void> {
  await db.insert(mailOutbox).values({ ...message, html: message.html ?? null, transport });
}

/** Newest first; `to` matches the whole address, whatever its case. */
export async function listMail(db: Db, filter: { to?: string; limit: number }) {
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(filter.to ? eq(sql`lower(${mailOutbox.to})`, filter.to.toLowerCase()) : undefined)
    .orderBy(desc(mailOutbox.id))
    .limit(filter.limit);
  return rows.map((row) => ({
    id: row.id,
    to: row.to,
    subject: row.subject,
    text: row.text,
    created_at: row.createdAt.toISOString(),
  }));
}

/** The mail_outbox table: every message sent is kept here, whichever transport carried it. */
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/platform-tables';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender's own key: a message with a key already kept is not kept (nor sent over SMTP) again. */
  key?: string;
  /** Extra headers for SMTP (List-Unsubscribe). */
  headers?: Record<string, string>;
}

export type MailTransport = 'outbox' | 'smtp' | 'none';

/** Answers false when a message with the same key was kept before (then nothing is written). */
export async function keepMail(db: Db, message: MailMessage, transport: MailTransport): Promise<boolean> {
  const { to, subject, text, html, key } = message;
  const kept = await db
    .insert(mailOutbox)
    .values({ to, subject, text, html: html ?? null, transport, messageKey: key ?? null })
    .onConflictDoNothing({ target: mailOutbox.messageKey })
    .returning({ id: mailOutbox.id });
  return kept.length > 0;
}

/** Whether a message with this key was kept already (sent before a crash stopped its sender from saying so). */
export async function wasKept(db: Db, key: string): Promise<boolean> {
  const [row] = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.messageKey, key));
  return row !== undefined;
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

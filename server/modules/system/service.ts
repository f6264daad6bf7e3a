/** Countries and system messages. */
import { and, asc, desc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit';
import type { ReadCache } from '../../platform/cache/read-cache';
import type { Db } from '../../platform/db/client';
import { MSG } from '../../../common/messages';
import { notFound } from '../../platform/http/errors';
import { COUNTRIES } from './countries';
import { countries, systemMessages } from './tables';

const byName = new Intl.Collator('en');

/** Shown now: active, started (or no start), not ended (or no end). */
const inWindow = (now: Date) => and(
  eq(systemMessages.active, true),
  or(isNull(systemMessages.startsAt), lte(systemMessages.startsAt, now)),
  or(isNull(systemMessages.endsAt), gt(systemMessages.endsAt, now)),
);

export interface NewSystemMessage {
  title: string;
  content: string;
  frequency: 'once' | 'always';
  locale: string;
  startsAt?: Date | null | undefined;
  endsAt?: Date | null | undefined;
}

/** What the console and the audit log show of a message. */
const toRecord = (row: typeof systemMessages.$inferSelect) => ({
  id: row.id, title: row.title, content: row.content, frequency: row.frequency, locale: row.locale,
  starts_at: row.startsAt?.toISOString() ?? null, ends_at: row.endsAt?.toISOString() ?? null, created_at: row.createdAt.toISOString(),
});

const toMessage = (row: typeof systemMessages.$inferSelect) => ({
  id: row.id,
  title: row.title,
  content: row.content,
  frequency: row.frequency,
});

/** The tag of the cached messages: every signed-in page asks for them. */
const MESSAGES_TAG = 'system-messages';

export function createSystemService(deps: { db: Db; cache?: ReadCache }) {
  const { db } = deps;
  const read = (language: string) => db.select().from(systemMessages)
    .where(and(inWindow(new Date()), eq(systemMessages.locale, language))).orderBy(asc(systemMessages.id));
  const messagesChanged = () => deps.cache?.invalidate([MESSAGES_TAG]);
  return {
    /** Reference data every installation needs; safe to run at every start. */
    async ensureReferenceData() {
      await db
        .insert(countries)
        .values(COUNTRIES.map(([code, name]) => ({ code, name })))
        .onConflictDoNothing();
    },

    /** Sorted as people read names ("Åland Islands" near the top), not by byte value. */
    async listCountries() {
      const rows = await db.select({ code: countries.code, name: countries.name }).from(countries);
      return rows.sort((a, b) => byName.compare(a.name, b.name));
    },

    async messagesFor(locale: string) {
      const language = locale.slice(0, 2);
      // A scheduled message starts or ends within the entry's life (about a second).
      const rows = deps.cache ? await deps.cache.get(`messages:${language}`, [MESSAGES_TAG], () => read(language)) : await read(language);
      return rows.map(toMessage);
    },

    async message(id: number) {
      const [row] = await db.select().from(systemMessages).where(and(eq(systemMessages.id, id), inWindow(new Date())));
      if (!row) throw notFound(MSG.noSuchMessage);
      return toMessage(row);
    },

    async addMessage(message: NewSystemMessage) {
      await db.insert(systemMessages).values(message);
      await messagesChanged();
    },

    /** Every message, newest first (the console's list: scheduled, shown and retired). */
    async allMessages() {
      const rows = await db.select().from(systemMessages).where(eq(systemMessages.active, true)).orderBy(desc(systemMessages.id)).limit(200);
      return rows.map(toRecord);
    },

    /** An administrator's new message (a start in the future schedules it), audited in the same transaction. */
    async createMessage(actorId: number, message: NewSystemMessage) {
      const created = await db.transaction(async (tx) => {
        const [row] = await tx.insert(systemMessages).values(message).returning();
        const record = toRecord(row!);
        await recordAudit(tx, { actorId, action: 'message.create', targetType: 'message', targetId: row!.id, before: null, after: record });
        return record;
      });
      await messagesChanged();
      return created;
    },

    /** Ends the message now (an ended one stays as it is); audited. */
    async retireMessage(actorId: number, id: number) {
      const retired = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(systemMessages).where(and(eq(systemMessages.id, id), eq(systemMessages.active, true)));
        if (!row) throw notFound(MSG.noSuchMessage);
        const now = new Date();
        if (row.endsAt && row.endsAt <= now) return toRecord(row);
        const [updated] = await tx.update(systemMessages).set({ endsAt: now }).where(eq(systemMessages.id, id)).returning();
        await recordAudit(tx, { actorId, action: 'message.retire', targetType: 'message', targetId: id, before: toRecord(row), after: toRecord(updated!) });
        return toRecord(updated!);
      });
      await messagesChanged();
      return retired;
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;

/** Countries and system messages. */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { MSG } from '../../../common/messages';
import { notFound } from '../../platform/http/errors';
import { COUNTRIES } from './countries';
import { countries, systemMessages } from './tables';

const byName = new Intl.Collator('en');

const toMessage = (row: typeof systemMessages.$inferSelect) => ({
  id: row.id,
  title: row.title,
  content: row.content,
  frequency: row.frequency,
});

export function createSystemService(deps: { db: Db }) {
  const { db } = deps;
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
      const rows = await db
        .select()
        .from(systemMessages)
        .where(and(eq(systemMessages.active, true), eq(systemMessages.locale, language)))
        .orderBy(asc(systemMessages.id));
      return rows.map(toMessage);
    },

    async message(id: number) {
      const [row] = await db.select().from(systemMessages).where(and(eq(systemMessages.id, id), eq(systemMessages.active, true)));
      if (!row) throw notFound(MSG.noSuchMessage);
      return toMessage(row);
    },

    async addMessage(message: { title: string; content: string; frequency: 'once' | 'always'; locale: string }) {
      await db.insert(systemMessages).values(message);
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;

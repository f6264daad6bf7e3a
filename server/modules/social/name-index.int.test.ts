/**
 * The name index (decision 0075) against the database it stands in for: on 1,500 names, every search of
 * a few hundred texts — prefixes, inner parts, typos, pages past the first, a small cap — answers what
 * PostgreSQL's LIKE and pg_trgm `%` / `similarity` answer, in the same order with the same total; and an
 * index catches up at its next search with names added, renamed, suspended and reactivated elsewhere.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { nameChangesSql, people } from '../accounts';
import { createNameIndex, type NameChange, type ReadPage } from './name-index';

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'ven', 'tor', 'sa', 'li', 'an', 'ne', 'ro', 'bi'];
const CAP = 40;
const TYPO_MIN = 4;
let t: TestApp;
const db = () => t.resources.database.db;

beforeAll(async () => {
  t = await startTestApp();
  const names = Array.from({ length: 1500 }, (_, i) => {
    const stem = `${SYLLABLES[i % SYLLABLES.length]}${SYLLABLES[Math.floor(i / SYLLABLES.length) % SYLLABLES.length]}`;
    const separator = ['', '_', '.', ''][i % 4];
    return `Idx${stem}${separator}${i}`;
  });
  await db().execute(sql`
    insert into users (username, email, broadcast_key, country, account_status)
    select n, lower(n) || '@names.example', 'names_' || n, 'US', case when ord % 17 = 0 then 'suspended' else 'active' end
    from unnest(${`{${names.join(',')}}`}::text[]) with ordinality as u(n, ord)`);
});
afterAll(() => t.close());

/** The changes the index has not seen (the service reads its page's people in the same statement). */
const changesOnly: ReadPage<never> = async (_ids, after) => {
  const [row] = (await db().execute(sql`select ${nameChangesSql(after)} as changes`)).rows as Array<{ changes: NameChange[] }>;
  return { listed: [], changes: row!.changes };
};
const searchOf = (index: ReturnType<typeof createNameIndex>, text: string, page: { offset: number; limit: number }) =>
  index.search(text, page, changesOnly).then(({ ids, total }) => ({ ids, total }));

/** What the SQL search answered (decision 0073's statements), as ids and a total. */
async function bySql(text: string, page: { offset: number; limit: number }) {
  const term = text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  const name = sql`(lower(${people.username}) collate "C")`;
  const active = eq(people.accountStatus, 'active');
  const startsWith = and(active, sql`${name} like ${`${term}%`}`);
  const elsewhereWhere = and(active, sql`lower(${people.username}) like ${`%${term}%`}`, sql`not (${name} like ${`${term}%`})`);
  const count = async (where: SQL | undefined) =>
    (await db().select({ id: people.id }).from(people).where(where).limit(CAP)).length;
  const leading = await count(startsWith);
  const rest = leading < CAP ? Math.min(await count(elsewhereWhere), CAP - leading) : 0;
  const found = page.offset < leading
    ? (await db().select({ id: people.id }).from(people).where(startsWith).orderBy(name).offset(page.offset).limit(page.limit)).map((r) => r.id)
    : [];
  if (found.length < page.limit && rest > 0) {
    found.push(...(await db().select({ id: people.id }).from(people).where(elsewhereWhere).orderBy(name)
      .offset(Math.max(0, page.offset - leading)).limit(page.limit - found.length)).map((r) => r.id));
  }
  let total = leading + rest;
  if (page.offset === 0 && found.length < page.limit && text.length >= TYPO_MIN) {
    const similar = await db().select({ id: people.id }).from(people)
      .where(and(active, sql`lower(${people.username}) % ${text.toLowerCase()}`, sql`not (lower(${people.username}) like ${`%${term}%`})`))
      .orderBy(sql`similarity(lower(${people.username}), ${text.toLowerCase()}) desc`, people.id)
      .limit(page.limit - found.length);
    found.push(...similar.map((r) => r.id));
    total += similar.length;
  }
  return { ids: found, total };
}

describe('the name index', () => {
  it('answers every search as the database does: prefixes, inner parts, typos, later pages, the cap', async () => {
    const index = createNameIndex(db(), { totalCap: CAP, typoMinChars: TYPO_MIN });
    const texts = new Set<string>(['idx', 'IDXKA', 'idxka_1', 'idxlo.2', 'kalo', 'ven_', 'a_1', '.5', '149', 'ravenn', 'idxkalo1', 'torsa', 'sa.li', 'nebi_99', 'xyz', 'idxkaven_1']);
    for (let i = 0; i < 120; i += 1) {
      const stem = `${SYLLABLES[(i * 7) % SYLLABLES.length]}${SYLLABLES[(i * 5) % SYLLABLES.length]}`;
      texts.add(`${stem}${i % 3 === 0 ? '_' : ''}${(i * 37) % 150}`);
      texts.add(`idx${stem.slice(1)}${i % 20}`);
    }
    const pages = [{ offset: 0, limit: 20 }, { offset: 20, limit: 20 }, { offset: 35, limit: 10 }];
    let compared = 0;
    for (const text of texts) {
      for (const page of pages) {
        expect(await searchOf(index, text, page), `${text} at ${page.offset}`).toEqual(await bySql(text, page));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('catches up at its next search with what changed through another instance', async () => {
    const index = createNameIndex(db(), { totalCap: CAP, typoMinChars: TYPO_MIN });
    const ids = async (text: string) => (await searchOf(index, text, { offset: 0, limit: 20 })).ids;
    expect(await ids('zebracorn')).toEqual([]);
    const [made] = (await db().execute(sql`
      insert into users (username, email, broadcast_key, country) values ('Zebracorn', 'zebracorn@names.example', 'names_zebracorn', 'US') returning id`)).rows as Array<{ id: string }>;
    const id = Number(made!.id);
    expect(await ids('zebracorn')).toEqual([id]);
    await db().execute(sql`update users set username = 'Unicornzebra' where id = ${id}`);
    expect(await ids('zebracorn')).toEqual([]);
    expect(await ids('unicorn')).toEqual([id]);
    await db().execute(sql`update users set account_status = 'suspended' where id = ${id}`);
    expect(await ids('unicorn')).toEqual([]);
    await db().execute(sql`update users set account_status = 'active' where id = ${id}`);
    expect(await ids('unicornzebr')).toEqual([id]);
    // A change to anything else takes no number: nothing to read again.
    const before = (await db().execute(sql`select change_no from users where id = ${id}`)).rows[0];
    await db().execute(sql`update users set description = 'Horse' where id = ${id}`);
    expect((await db().execute(sql`select change_no from users where id = ${id}`)).rows[0]).toEqual(before);
  });
});

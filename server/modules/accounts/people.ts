/**
 * The public read model of people, for other modules' queries that must join or search users (follow
 * lists, user search): the columns anyone may see, never the account's secrets, and no writes. It is a
 * subquery that PostgreSQL folds into the outer query, so the users table's indexes still serve it.
 */
import { count, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/client';
import { users } from './tables';

export const people = new QueryBuilder()
  .select({
    id: users.id,
    username: users.username,
    fullname: users.fullname,
    description: users.description,
    country: users.country,
    avatar: users.avatar,
    accountStatus: users.accountStatus,
    createdAt: users.createdAt,
    changeNo: users.changeNo,
  })
  .from(users)
  .as('people');

/**
 * The users whose name or standing changed past change number `after` (migration 0049), oldest first, as
 * one JSON array of `{ id, name (lower-cased), active, changeNo }`: for a statement that reads something else
 * beside them (the name index's catching up, decision 0075).
 */
export const nameChangesSql = (after: unknown) => sql`coalesce((select json_agg(json_build_object('id', u.id, 'name', lower(u.username),
  'active', u.account_status = 'active', 'changeNo', u.change_no) order by u.change_no) from ${users} u where u.change_no > ${after}), '[]'::json)`;

/** True (as SQL) when the user with this id exists and is active. */
export const activeUserSql = (userId: unknown) =>
  sql`exists (select 1 from ${users} u where u.id = ${userId} and u.account_status = 'active')`;

/** Whether any account exists yet (a fresh installation has none). */
export async function hasAnyAccount(db: Db): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(users);
  return (existing?.n ?? 0) > 0;
}

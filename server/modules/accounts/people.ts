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
  })
  .from(users)
  .as('people');

/** True (as SQL) when the user with this id exists and is active. */
export const activeUserSql = (userId: unknown) =>
  sql`exists (select 1 from ${users} u where u.id = ${userId} and u.account_status = 'active')`;

/** Whether any account exists yet (a fresh installation has none). */
export async function hasAnyAccount(db: Db): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(users);
  return (existing?.n ?? 0) > 0;
}

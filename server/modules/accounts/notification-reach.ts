/**
 * Who may be notified, and how, for statements that notify many people at once: each active account
 * with its e-mail address, skin and notification switches (the column defaults where never set).
 * A subquery for other modules' SQL; it writes nothing.
 */
import { sql, type AnyColumn } from 'drizzle-orm';
import { userPreferences, users } from './tables';

const withDefault = (column: AnyColumn) => sql`coalesce(p.${sql.identifier(column.name)}, ${sql.raw(String(column.default))})`;

export const notificationReachSql = sql`select u.id as user_id, u.username, u.email, u.service as skin,
  ${withDefault(userPreferences.notifyStreamStart)} as stream_start,
  ${withDefault(userPreferences.notifyNewFollower)} as new_follower,
  ${withDefault(userPreferences.notifyViaEmail)} as via_email,
  ${withDefault(userPreferences.notifyViaPush)} as via_push
  from ${users} u left join ${userPreferences} p on p.user_id = u.id
  where u.account_status = 'active'`;

/**
 * Writing and reading notifications. One statement notifies a whole batch of people: it keeps those the
 * reach read model allows (active, the kind's switch on, the hourly cap not reached), inserts their
 * notifications once per source key, and their e-mail and push deliveries with them.
 */
import { and, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { NotificationItem, NotificationKind } from '../../../common/api/notifications';
import { UNREAD_COUNT_CAP } from '../../../common/constants';
import type { Executor } from '../../platform/db/client';
import { notificationReachSql, type AccountsService } from '../accounts';
import { notificationDeliveries, notifications, pushSubscriptions, type NotificationData } from './tables';
import { notificationLink, notificationText, type NotificationFacts } from './texts';
import { integerArray } from '../../platform/db/arrays';

/** How each kind is told: the preference that must be on, the hourly cap per actor, and the ways besides the bell. */
export const POLICY: Record<NotificationKind, { gate: 'stream_start' | 'new_follower' | null; hourlyCap: boolean; email: boolean; push: boolean }> = {
  stream_live: { gate: 'stream_start', hourlyCap: true, email: true, push: true },
  new_follower: { gate: 'new_follower', hourlyCap: true, email: true, push: true },
  // Every tip is in the bell and on the phone; a mail per tip would be noise.
  tip_received: { gate: null, hourlyCap: false, email: false, push: true },
  meeting_invitation: { gate: null, hourlyCap: false, email: true, push: true },
  subscription_renewal_failed: { gate: null, hourlyCap: false, email: true, push: true },
  // Sales are told like tips: in the bell and on the phone (by the user's via-push switch), a new subscriber by mail too.
  new_subscriber: { gate: null, hourlyCap: false, email: true, push: true },
  post_purchased: { gate: null, hourlyCap: false, email: false, push: true },
  meeting_paid: { gate: null, hourlyCap: false, email: false, push: true },
  toy_purchased: { gate: null, hourlyCap: false, email: false, push: true },
  // Money leaving: every step is mailed too.
  payout_update: { gate: null, hourlyCap: false, email: true, push: true },
  // A chatty commenter rings the bell once an hour per post owner.
  post_comment: { gate: null, hourlyCap: true, email: false, push: true },
};

export interface NotificationSource {
  kind: NotificationKind;
  /** Who did it; null for what no person did to the reader (their own payout's steps). Nobody is told of what they did themselves. */
  actorId: number | null;
  subjectId: number | null;
  data: NotificationData;
  dedupeKey: string;
}

export interface Created {
  id: number;
  userId: number;
  /** An e-mail or push delivery was queued with it (the delivery job has work). */
  delivering: boolean;
}


/** One notification for one person: the source's facts with the person told. */
export type Notice = Omit<NotificationSource, 'kind'> & { userId: number };

/**
 * Notifies each person of their own thing (all of one kind), in the caller's transaction, in one
 * statement; answers the notifications written. A notice already written (its person and source key)
 * is not written again.
 */
export async function notifyEach(exec: Executor, kind: NotificationKind, notices: readonly Notice[]): Promise<Created[]> {
  if (notices.length === 0) return [];
  const policy = POLICY[kind];
  const gate = policy.gate ? sql`and x.${sql.identifier(policy.gate)}` : sql``;
  const cap = policy.hourlyCap
    ? sql`and not exists (select 1 from ${notifications} n where n.user_id = x.user_id and n.actor_id = w.actor_id
        and n.kind = ${kind} and n.created_at > now() - interval '1 hour')`
    : sql``;
  const wanted = JSON.stringify(notices.map((n) => ({ user_id: n.userId, actor_id: n.actorId, subject_id: n.subjectId, data: n.data, dedupe_key: n.dedupeKey })));
  const result = await exec.execute<{ id: string | number; user_id: string | number; delivering: boolean }>(sql`
    with w as (
      select distinct on (user_id, dedupe_key) * from jsonb_to_recordset(${wanted}::jsonb) as w(user_id bigint, actor_id bigint, subject_id bigint, data jsonb, dedupe_key text)
    ), r as (
      select w.*, x.via_email, x.via_push from w join (${notificationReachSql}) x on x.user_id = w.user_id
      where x.user_id is distinct from w.actor_id ${gate} ${cap}
    ), ins as (
      insert into ${notifications} (user_id, kind, actor_id, subject_id, data, dedupe_key)
      select user_id, ${kind}, actor_id, subject_id, data, dedupe_key from r
      on conflict (user_id, dedupe_key) do nothing
      returning id, user_id, dedupe_key
    ), deliveries as (
      insert into ${notificationDeliveries} (notification_id, channel)
      select ins.id, c.channel from ins join r using (user_id, dedupe_key) cross join (values ('email'), ('push')) c(channel)
      where (c.channel = 'email' and ${policy.email} and r.via_email)
         or (c.channel = 'push' and ${policy.push} and r.via_push and exists (select 1 from ${pushSubscriptions} s where s.user_id = ins.user_id))
      returning notification_id
    )
    select id, user_id, id in (select notification_id from deliveries) as delivering from ins`);
  return result.rows.map((row) => ({ id: Number(row.id), userId: Number(row.user_id), delivering: row.delivering === true }));
}

/** Notifies these people of one thing, in the caller's transaction; answers the notifications written. */
export function notifyPeople(exec: Executor, source: NotificationSource, userIds: readonly number[]): Promise<Created[]> {
  const { kind, ...facts } = source;
  return notifyEach(exec, kind, userIds.map((userId) => ({ ...facts, userId })));
}

/**
 * Unread counts of these people (0 for those with none), counted up to UNREAD_COUNT_CAP: the bell shows
 * 99+ long before, and a popular broadcaster's tips would otherwise make every count read all their
 * unread notices.
 */
export async function unreadCounts(exec: Executor, userIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) return counts;
  const ids = integerArray([...counts.keys()]);
  const result = await exec.execute<{ user_id: string | number; unread: number }>(sql`
    select u.id as user_id, (select count(*) from (
      select 1 from ${notifications} n where n.user_id = u.id and n.read_at is null limit ${UNREAD_COUNT_CAP}) c)::int as unread
    from unnest(${ids}::bigint[]) as u(id)`);
  for (const row of result.rows) counts.set(Number(row.user_id), Number(row.unread));
  return counts;
}

type PublicUsers = AccountsService['publicUsers'];

export function createNotificationReads(deps: { db: Executor; publicUsers: PublicUsers }) {
  const { db } = deps;

  /** The list's items for these rows, with the actors' current names. */
  async function itemsOf(rows: (typeof notifications.$inferSelect)[]): Promise<NotificationItem[]> {
    const actors = await deps.publicUsers(rows.flatMap((row) => (row.actorId === null ? [] : [row.actorId])));
    return rows.map((row) => {
      const actor = row.actorId === null ? undefined : actors.get(row.actorId);
      const facts: NotificationFacts = { kind: row.kind, actorId: row.actorId, actorName: actor?.username ?? '', subjectId: row.subjectId, data: row.data };
      return {
        id: row.id,
        kind: row.kind,
        text: notificationText(facts),
        link: notificationLink(facts),
        actor: actor && row.actorId !== null ? { id: row.actorId, ...actor } : null,
        read: row.readAt !== null,
        created_at: row.createdAt.toISOString(),
      };
    });
  }

  return {
    itemsOf,

    async list(userId: number, page: { limit: number; before?: number | undefined }) {
      const rows = await db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, userId), page.before === undefined ? undefined : lt(notifications.id, page.before)))
        .orderBy(desc(notifications.id))
        .limit(page.limit + 1);
      const unread = (await unreadCounts(db, [userId])).get(userId) ?? 0;
      return { notifications: await itemsOf(rows.slice(0, page.limit)), unread, has_more: rows.length > page.limit };
    },

    /** Marks the caller's named notifications (others' ids are ignored), or all of them, read. */
    async markRead(userId: number, which: { ids?: number[] | undefined; all?: boolean | undefined }): Promise<number> {
      await db
        .update(notifications)
        .set({ readAt: new Date() })
        .where(and(eq(notifications.userId, userId), isNull(notifications.readAt), which.all ? undefined : inArray(notifications.id, which.ids ?? [])));
      return (await unreadCounts(db, [userId])).get(userId) ?? 0;
    },
  };
}

export type NotificationReads = ReturnType<typeof createNotificationReads>;

/**
 * Read models other modules embed in their own statements (docs/architecture.md §3): what a viewer's
 * subscription to a creator gives them now. A subscription gives its benefits until the end of its
 * paid period, whatever its state (a cancelled one keeps them to the end).
 */
import { and, eq, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { subscriptionPlans, subscriptions, type Benefits } from './tables';
import { integerArray } from '../../platform/db/arrays';

/**
 * The benefits (jsonb, or null) of the viewer's subscription to the creator that is paid up now.
 * `viewerId` and `creatorId` may be SQL (a column of the embedding statement).
 */
export const activeBenefitsSql = (viewerId: number | SQL, creatorId: number | SQL) => sql`(
  select s.benefits from ${subscriptions} s
  where s.subscriber_id = ${viewerId} and s.creator_id = ${creatorId} and s.end_date > now()
  order by s.end_date desc limit 1)`;

/** True (as SQL) while the viewer holds a paid-up subscription to the creator. */
export const isSubscribedSql = (viewerId: number | SQL | AnyColumn, creatorId: number | SQL | AnyColumn) => sql`exists (
  select 1 from ${subscriptions} s
  where s.subscriber_id = ${viewerId} and s.creator_id = ${creatorId} and s.end_date > now())`;

/** The creator's paid-up subscribers (of one plan, when given), as `user_id`, each once. */
export const activeSubscribersSql = (creatorId: number, planId?: number) => sql`select distinct s.subscriber_id as user_id from ${subscriptions} s
  where s.creator_id = ${creatorId} and s.end_date > now()${planId === undefined ? sql`` : sql` and s.plan_id = ${planId}`}`;

/** Whether the plan is the creator's and still offered. */
export async function offersThisPlan(exec: Executor, creatorId: number, planId: number): Promise<boolean> {
  const result = await exec.execute(sql`select 1 from ${subscriptionPlans} p where p.id = ${planId} and p.user_id = ${creatorId} and p.deleted_at is null`);
  return result.rows.length > 0;
}

/** The benefits of the viewer's paid-up subscription to the creator, or null when there is none. */
export async function activeBenefits(exec: Executor, viewerId: number | null, creatorId: number): Promise<Benefits | null> {
  if (viewerId === null || viewerId === creatorId) return null;
  const result = await exec.execute(sql`select ${activeBenefitsSql(viewerId, creatorId)} as benefits`);
  const row = result.rows[0] as { benefits: Benefits | string | null } | undefined;
  const value = row?.benefits ?? null;
  return typeof value === 'string' ? (JSON.parse(value) as Benefits) : value;
}

/** The highest plan level of the viewer's paid-up subscriptions to the creator, or null when there is none (emotes). */
export async function activePlanLevel(exec: Executor, viewerId: number, creatorId: number): Promise<number | null> {
  const result = await exec.execute(sql`
    select max(s.plan_level) as level from ${subscriptions} s
    where s.subscriber_id = ${viewerId} and s.creator_id = ${creatorId} and s.end_date > now()`);
  const level = (result.rows[0] as { level: number | string | null } | undefined)?.level ?? null;
  return level === null ? null : Number(level);
}

/** Of many creators, those the viewer is subscribed to now (profiles, listings). */
export async function subscribedTo(exec: Executor, viewerId: number | null, creatorIds: number[]): Promise<Set<number>> {
  if (viewerId === null || creatorIds.length === 0) return new Set();
  const result = await exec.execute(sql`
    select distinct s.creator_id from ${subscriptions} s
    where s.subscriber_id = ${viewerId} and s.creator_id = any(${integerArray(creatorIds)}::bigint[]) and s.end_date > now()`);
  return new Set((result.rows as Array<{ creator_id: string | number }>).map((r) => Number(r.creator_id)));
}

/** Whether the creator offers a plan now (a subscribers-only post needs one, spec part 1 §5). */
export async function offersPlan(exec: Executor, creatorId: number): Promise<boolean> {
  const rows = await exec.select({ id: subscriptionPlans.id }).from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.userId, creatorId), isNull(subscriptionPlans.deletedAt))).limit(1);
  return rows.length > 0;
}

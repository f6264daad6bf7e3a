/** What a broadcaster earned on their streams: likes, and the overall star rating viewers gave. */
import { and, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import type { BroadcasterScore } from '../social';
import type { RealtimeLikesOn } from './analytics-reads';
import { streamRatings, streams } from './tables';

/**
 * Each broadcaster's likes (of streams not deleted, as the streams show them: saved likes, plus the
 * realtime likes when `realtimeLikesOn` is given) and the average of every rating of their streams,
 * to one decimal (0 when unrated). One grouped query over the given users' streams: each stream's ratings are summed through the
 * (stream_id, user_id) key, so the cost follows the users asked for, not the size of the tables.
 */
export async function broadcasterScores(db: Executor, userIds: number[], realtimeLikesOn?: RealtimeLikesOn): Promise<Map<number, BroadcasterScore>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({
      userId: streams.userId,
      likes: sql<number>`coalesce(sum(${streams.likes}) filter (where ${streams.deletedAt} is null), 0)::int`,
      overall: sql<string | null>`round(sum(rated.total)::numeric / nullif(sum(rated.n), 0), 1)`,
    })
    .from(streams)
    .leftJoinLateral(
      db.select({ total: sql<number>`sum(${streamRatings.rating})`.as('total'), n: sql<number>`count(*)`.as('n') })
        .from(streamRatings).where(sql`${streamRatings.streamId} = ${streams.id}`).as('rated'),
      sql`true`,
    )
    .where(inArray(streams.userId, [...new Set(userIds)]))
    .groupBy(streams.userId);
  const realtime = new Map<number, number>();
  if (realtimeLikesOn && rows.length > 0) {
    const owned = await db.select({ id: streams.id, userId: streams.userId }).from(streams)
      .where(and(inArray(streams.userId, rows.map((r) => r.userId)), isNull(streams.deletedAt)));
    const likes = await realtimeLikesOn(owned.map((o) => o.id));
    for (const o of owned) realtime.set(o.userId, (realtime.get(o.userId) ?? 0) + (likes.get(o.id) ?? 0));
  }
  return new Map(rows.map((r) => [r.userId, { likes: r.likes + (realtime.get(r.userId) ?? 0), overall_rating: r.overall === null ? 0 : Number(r.overall) }]));
}

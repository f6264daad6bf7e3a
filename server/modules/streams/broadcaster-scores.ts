/** What a broadcaster earned on their streams: likes, and the overall star rating viewers gave. */
import { and, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { preparedStatement } from '../../platform/db/prepared';
import type { BroadcasterScore } from '../social';
import type { RealtimeLikesOn } from './analytics-reads';
import { streamRatings, streams } from './tables';

/** Each broadcaster's saved likes and rating sums, one row per broadcaster with streams, for the users `which` selects. */
const scoresQuery = (db: Executor, which: SQL) => db
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
  .where(which)
  .groupBy(streams.userId);

type ScoreRow = { userId: number; likes: number; overall: string | null };

async function withRealtimeLikes(db: Executor, rows: ScoreRow[], realtimeLikesOn?: RealtimeLikesOn): Promise<Map<number, BroadcasterScore>> {
  const realtime = new Map<number, number>();
  if (realtimeLikesOn && rows.length > 0) {
    const owned = await db.select({ id: streams.id, userId: streams.userId }).from(streams)
      .where(and(inArray(streams.userId, rows.map((r) => r.userId)), isNull(streams.deletedAt)));
    const likes = await realtimeLikesOn(owned.map((o) => o.id));
    for (const o of owned) realtime.set(o.userId, (realtime.get(o.userId) ?? 0) + (likes.get(o.id) ?? 0));
  }
  return new Map(rows.map((r) => [r.userId, { likes: r.likes + (realtime.get(r.userId) ?? 0), overall_rating: r.overall === null ? 0 : Number(r.overall) }]));
}

/**
 * Each broadcaster's likes (of streams not deleted, as the streams show them: saved likes, plus the
 * realtime likes when `realtimeLikesOn` is given) and the average of every rating of their streams,
 * to one decimal (0 when unrated). One grouped query over the given users' streams: each stream's ratings are summed through the
 * (stream_id, user_id) key, so the cost follows the users asked for, not the size of the tables.
 */
export async function broadcasterScores(db: Executor, userIds: number[], realtimeLikesOn?: RealtimeLikesOn): Promise<Map<number, BroadcasterScore>> {
  if (userIds.length === 0) return new Map();
  return withRealtimeLikes(db, await scoresQuery(db, inArray(streams.userId, [...new Set(userIds)])), realtimeLikesOn);
}

/**
 * `broadcasterScores` as one prepared statement for any number of users (every profile and user search
 * asks it, mostly of people who never streamed): parsed and planned once per connection.
 */
export function preparedBroadcasterScores(db: Executor, realtimeLikesOn?: RealtimeLikesOn): (userIds: number[]) => Promise<Map<number, BroadcasterScore>> {
  const scores = preparedStatement(scoresQuery(db, sql`${streams.userId} = any(${sql.placeholder('ids')}::bigint[])`), 'streams_broadcaster_scores');
  return async (userIds) => (userIds.length === 0 ? new Map() : withRealtimeLikes(db, await scores({ ids: [...new Set(userIds)] }), realtimeLikesOn));
}

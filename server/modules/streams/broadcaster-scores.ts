/** What a broadcaster earned on their streams: likes, and the overall star rating viewers gave. */
import { and, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { integerArray } from '../../platform/db/arrays';
import type { Executor } from '../../platform/db/client';
import type { BroadcasterScore, BroadcasterScoreReads } from '../social';
import type { RealtimeLikesOn } from './analytics-reads';
import { streamRatings, streams } from './tables';

/** The saved scores with the likes of these broadcasters' streams not saved yet, when `realtimeLikesOn` is given. */
async function withRealtimeLikes(db: Executor, saved: Map<number, BroadcasterScore>, realtimeLikesOn?: RealtimeLikesOn): Promise<Map<number, BroadcasterScore>> {
  if (!realtimeLikesOn || saved.size === 0) return saved;
  const owned = await db.select({ id: streams.id, userId: streams.userId }).from(streams)
    .where(and(inArray(streams.userId, [...saved.keys()]), isNull(streams.deletedAt)));
  const likes = await realtimeLikesOn(owned.map((o) => o.id));
  const realtime = new Map<number, number>();
  for (const o of owned) realtime.set(o.userId, (realtime.get(o.userId) ?? 0) + (likes.get(o.id) ?? 0));
  return new Map([...saved].map(([userId, score]) => [userId, { ...score, likes: score.likes + (realtime.get(userId) ?? 0) }]));
}

/** A broadcaster's saved likes and overall rating, as aggregates over their streams `s`, each joined to its ratings' sum and count `rated`. */
const SAVED_LIKES = sql`coalesce(sum(s.likes) filter (where s.deleted_at is null), 0)::int`;
const SAVED_RATING = sql`coalesce(round(sum(rated.total)::numeric / nullif(sum(rated.n), 0), 1), 0)`;
const RATED_STREAMS = sql`${streams} s left join lateral (select sum(r.rating) as total, count(*) as n from ${streamRatings} r where r.stream_id = s.id) rated on true`;

/**
 * A broadcaster's saved scores as a column of another statement, for the user `userId` names there:
 * `{ likes, overall_rating }` as JSON, or null for a user who never streamed.
 */
export const savedScoreSql = (userId: SQL) =>
  sql<BroadcasterScore | null>`(select json_build_object('likes', ${SAVED_LIKES}, 'overall_rating', ${SAVED_RATING}) from ${RATED_STREAMS}
  where s.user_id = ${userId} having count(*) > 0)`;

/**
 * The saved scores of the users of an id array as a table to join, `(user_id, likes, overall_rating)`: a
 * user who never streamed has no row. One grouped read for a page of people, where a column per person
 * would aggregate once per row.
 */
export const savedScoresTableSql = (userIds: SQL) =>
  sql`(select s.user_id, ${SAVED_LIKES} as likes, ${SAVED_RATING} as overall_rating from ${RATED_STREAMS} where s.user_id = any(${userIds}) group by s.user_id)`;

/**
 * Each broadcaster's saved likes (of streams not deleted) and the average of every rating of their
 * streams, to one decimal (0 when unrated); users who never streamed are left out. Each stream's ratings
 * are summed through the (stream_id, user_id) key, so the cost follows the users asked for, not the size
 * of the tables.
 */
export async function savedBroadcasterScores(db: Executor, userIds: number[]): Promise<Map<number, BroadcasterScore>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({
    userId: sql<number>`scores.user_id`.mapWith(Number),
    likes: sql<number>`scores.likes`.mapWith(Number),
    overall_rating: sql<number>`scores.overall_rating`.mapWith(Number),
  }).from(sql`${savedScoresTableSql(sql`${integerArray(userIds)}::bigint[]`)} as scores`);
  return new Map(rows.map(({ userId, ...score }) => [userId, score]));
}

/**
 * The scores for profiles and the user search (asked mostly of people who never streamed): saved scores
 * read as a column of the caller's statement, then completed with the likes not saved yet.
 */
export function broadcasterScoreReads(db: Executor, realtimeLikesOn?: RealtimeLikesOn): BroadcasterScoreReads {
  return { savedColumn: savedScoreSql, savedTable: savedScoresTableSql, complete: (saved) => withRealtimeLikes(db, saved, realtimeLikesOn) };
}

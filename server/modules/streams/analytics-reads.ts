/** What creator analytics reads of streams: views as facts, likes of a range's streams, and stream cards. */
import { and, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { thumbnailUrl } from './stream-view';
import { streams, streamViews } from './tables';

/** Views as analytics facts (a subquery): a viewer's first join of `stream_id`, owned by `creator_id`, at `at`. */
export const viewFactsSql = sql`select s.user_id as creator_id, v.stream_id, v.first_joined_at as at
  from ${streamViews} v join ${streams} s on s.id = v.stream_id`;

/** Likes of the creator's streams that started in [from, to). */
export async function likesOfStreamsStarted(exec: Executor, creatorId: number, from: Date, to: Date): Promise<number> {
  const [row] = await exec.select({ likes: sql<number>`coalesce(sum(${streams.likes}), 0)::bigint` }).from(streams)
    .where(and(eq(streams.userId, creatorId), isNull(streams.deletedAt), gte(streams.startedAt, from), lt(streams.startedAt, to)));
  return Number(row?.likes ?? 0);
}

export interface StreamCard {
  streamId: number;
  title: string;
  thumbUrl: string;
  likes: number;
  views: number;
}

/** The creator's streams among these ids, not deleted, as the analytics lists show them. */
export async function streamCards(exec: Executor, creatorId: number, ids: number[]): Promise<Map<number, StreamCard>> {
  if (ids.length === 0) return new Map();
  const rows = await exec.select().from(streams).where(and(eq(streams.userId, creatorId), inArray(streams.id, ids), isNull(streams.deletedAt)));
  return new Map(rows.map((row) => [row.id, { streamId: row.id, title: row.title, thumbUrl: thumbnailUrl(row) ?? '', likes: row.likes, views: row.totalViews }]));
}

/** What these broadcasters (a subquery of user ids) streamed in [from, to): who, how many streams, how long. */
export async function streamingOf(exec: Executor, userIds: SQL, from: Date, to: Date): Promise<{ broadcasters: number; streams: number; seconds: number }> {
  const [row] = await exec.select({
    broadcasters: sql<string>`count(distinct ${streams.userId})`,
    streams: sql<string>`count(*)`,
    seconds: sql<string>`coalesce(sum(${streams.lengthSeconds}), 0)`,
  }).from(streams).where(and(sql`${streams.userId} in (${userIds})`, isNull(streams.deletedAt), gte(streams.startedAt, from), lt(streams.startedAt, to)));
  return { broadcasters: Number(row?.broadcasters ?? 0), streams: Number(row?.streams ?? 0), seconds: Number(row?.seconds ?? 0) };
}

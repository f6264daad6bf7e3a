/** What creator analytics reads of streams: views as facts, likes of a range's streams, and stream cards. */
import { and, eq, gte, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { thumbnailUrl } from './stream-info';
import { streams, streamViews } from './tables';

/** Views as analytics facts (a subquery): a viewer's first join of `stream_id`, owned by `creator_id`, at `at`. */
export const viewFactsSql = sql`select s.user_id as creator_id, v.stream_id, v.first_joined_at as at
  from ${streamViews} v join ${streams} s on s.id = v.stream_id`;

/** Likes given in realtime on each of these streams (the chat module's count). */
export type RealtimeLikesOn = (streamIds: number[]) => Promise<Map<number, number>>;

/**
 * Likes, as the streams show them (saved likes + realtime likes), of the creator's streams started in
 * [from, to) and not deleted.
 */
export async function likesOfStreamsStarted(exec: Executor, creatorId: number, from: Date, to: Date, realtimeLikesOn: RealtimeLikesOn): Promise<number> {
  const rows = await exec.select({ id: streams.id, likes: streams.likes }).from(streams)
    .where(and(eq(streams.userId, creatorId), isNull(streams.deletedAt), gte(streams.startedAt, from), lt(streams.startedAt, to)));
  const realtime = await realtimeLikesOn(rows.map((r) => r.id));
  return rows.reduce((sum, r) => sum + r.likes + (realtime.get(r.id) ?? 0), 0);
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

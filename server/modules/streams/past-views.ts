/** Views and complaints that happened in the past, for history brought in (demo data). */
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { streamReports, streams, streamViews } from './tables';

export interface PastView {
  /** A visitor's key (any text unique per viewer of the stream). */
  viewerKey: string;
  at: Date;
}

/** Records the views a stream had (each viewer once) and counts the new ones in its total; answers how many were new. */
export async function recordPastViews(exec: Executor, streamId: number, views: PastView[]): Promise<number> {
  if (views.length === 0) return 0;
  const inserted = await exec.insert(streamViews)
    .values(views.map((view) => ({ streamId, viewerKey: view.viewerKey, joinedAt: view.at, firstJoinedAt: view.at, leftAt: view.at })))
    .onConflictDoNothing().returning({ key: streamViews.viewerKey });
  if (inserted.length > 0) await exec.update(streams).set({ totalViews: sql`${streams.totalViews} + ${inserted.length}` }).where(eq(streams.id, streamId));
  return inserted.length;
}

/** A complaint filed in the past, for history brought in (demo data); nothing when that viewer filed one. */
export async function recordPastReport(exec: Executor, report: { streamId: number; reporterId: number; type: 'inappropriate' | 'crime' | 'troll' | 'other'; comment: string; at: Date }): Promise<void> {
  const { at, ...values } = report;
  await exec.insert(streamReports).values({ ...values, createdAt: at }).onConflictDoNothing();
}

/** Reading streams as they are, whoever asks: by id, a broadcaster's open streams, when they last went live. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { notFound } from '../../platform/http/errors';
import type { StreamRow } from './stream-info';
import { streams } from './tables';

export function createStreamReads(db: Db) {
  /** The stream, unless deleted (404 then); who may see it is StreamAccess's question. */
  async function findStream(streamId: number): Promise<StreamRow> {
    const [row] = await db.select().from(streams).where(and(eq(streams.id, streamId), isNull(streams.deletedAt)));
    if (!row) throw notFound(MSG.streamNotAvailable);
    return row;
  }

  return {
    findStream,

    /** The caller's own stream; anyone else is answered as if it did not exist. */
    async ownStream(streamId: number, principal: Pick<Principal, 'userId'>): Promise<StreamRow> {
      const row = await findStream(streamId);
      if (row.userId !== principal.userId) throw notFound(MSG.streamNotAvailable);
      return row;
    },

    /** The user's streams that have not ended (their viewers' rights may change with the broadcaster's subscriptions). */
    async openStreamIdsOf(userId: number): Promise<number[]> {
      const rows = await db.select({ id: streams.id }).from(streams)
        .where(and(eq(streams.userId, userId), isNull(streams.endedAt), isNull(streams.deletedAt)));
      return rows.map((r) => r.id);
    },

    /** When the user's latest stream started; null if they never went live. */
    async lastStreamStartedAt(userId: number): Promise<Date | null> {
      const [row] = await db.select({ at: sql<Date | string | null>`max(${streams.startedAt})` }).from(streams).where(eq(streams.userId, userId));
      return row?.at ? new Date(row.at) : null;
    },
  };
}

export type StreamReads = ReturnType<typeof createStreamReads>;

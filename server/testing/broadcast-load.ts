/**
 * Messages to many at scale (decision 0086), for the several-instances and kill -9 suites: a creator with
 * `count` followers made in one statement each, a message to all of them waiting to be delivered, a
 * delivery runner as an instance's job runs it (its own database pool), and the audit of what arrived.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../platform/db/client';
import { createBroadcastDelivery, createMessageMedia } from '../modules/messages';
import { followersSql } from '../modules/social';

export interface Followed {
  creatorId: number;
  followerIds: number[];
  broadcastId: number;
}

/** Seeds the creator, their followers and a message to them all (as `send-to-many` records it). */
export async function seedBroadcastToFollowers(url: string, count: number): Promise<Followed> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tag = `bc${process.pid}x${Date.now()}`;
    const made = await client.query<{ id: string }>(
      `insert into users (username, email, broadcast_key, terms_accepted, birthday, country)
       select $1 || '_' || g, $1 || '_' || g || '@load.local', md5($1 || g), true, '1990-06-15', 'CA' from generate_series(0, $2::int) g
       returning id`, [tag, count]);
    const ids = made.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    const [creatorId, ...followerIds] = ids as [number, ...number[]];
    await client.query('insert into follows (follower_id, followee_id) select unnest($1::bigint[]), $2', [followerIds, creatorId]);
    const broadcast = await client.query<{ id: string }>(
      `insert into message_broadcasts (sender_id, audience, body, client_key) values ($1, 'followers', 'To every fan', $2) returning id`, [creatorId, tag]);
    return { creatorId, followerIds, broadcastId: Number(broadcast.rows[0]!.id) };
  } finally {
    await client.end();
  }
}

/** Delivery as an instance's `deliver-message-broadcasts` job runs it, until nothing is left to send. */
export async function broadcastRunner(url: string, options: { batchSize?: number; poolSize?: number } = {}) {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: options.poolSize ?? 2 });
  let frames = 0;
  const broadcasts = createBroadcastDelivery({
    db: database.db,
    audienceSql: (senderId) => followersSql(senderId),
    publish: async () => void (frames += 1),
    media: createMessageMedia({ db: database.db }),
    log: { warn: () => undefined },
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
  });
  return {
    /** Runs the job until no broadcast is sending; answers the messages this runner wrote. */
    async deliverAll(): Promise<number> {
      let written = 0;
      for (;;) {
        const now = await broadcasts.deliver();
        written += now;
        // Another instance holds it: look again a moment later, as the next job turn would.
        if (now === 0) await new Promise((resolve) => setTimeout(resolve, 100));
        const { rows } = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from message_broadcasts where state = 'sending'`);
        if (Number(rows[0]?.n ?? 0) === 0) return written;
      }
    },
    frames: () => frames,
    close: () => database.close(),
  };
}

/** What arrived: recipients with their copy, any recipient with more than one, and the unread counts that disagree. */
export async function auditBroadcast(url: string, followed: Followed) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const copies = await client.query<{ recipients: string; doubled: string }>(
      `select count(distinct recipient_id) as recipients, count(*) - count(distinct recipient_id) as doubled from direct_messages where broadcast_id = $1`, [followed.broadcastId]);
    const unread = await client.query<{ wrong: string }>(
      `select count(*) as wrong from conversation_members m where m.partner_id = $1 and m.unread <> 1`, [followed.creatorId]);
    const state = await client.query<{ state: string; delivered: number }>('select state, delivered from message_broadcasts where id = $1', [followed.broadcastId]);
    return {
      recipients: Number(copies.rows[0]!.recipients),
      doubled: Number(copies.rows[0]!.doubled),
      wrongUnread: Number(unread.rows[0]!.wrong),
      state: state.rows[0]!.state,
      delivered: state.rows[0]!.delivered,
    };
  } finally {
    await client.end();
  }
}

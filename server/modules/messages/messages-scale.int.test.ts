/**
 * Messages to many with several instances at once and after kill -9, on PostgreSQL (the project with
 * TEST_DB_KIND postgres): every follower gets the message once, none is missed, and each unread count
 * says one.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditBroadcast, broadcastRunner, seedBroadcastToFollowers } from '../../testing/broadcast-load';
import { eventually } from '../../testing/eventually';
import { prepareDatabase } from '../../testing/renewal-load';
import { emptyPostgresDatabase } from '../../testing/tip-load';

const BATCH = 250;

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('messages to many at scale', () => {
  let database: Awaited<ReturnType<typeof emptyPostgresDatabase>>;
  beforeEach(async () => {
    database = await emptyPostgresDatabase('ll_broadcasts');
    await prepareDatabase(database.url);
  });
  afterEach(async () => {
    await database?.drop();
  });

  it('lets two instances deliver one message at once, each follower getting it once', async () => {
    const followed = await seedBroadcastToFollowers(database.url, 3000);
    const [a, b] = await Promise.all([broadcastRunner(database.url, { batchSize: BATCH }), broadcastRunner(database.url, { batchSize: BATCH })]);
    try {
      const [one, two] = await Promise.all([a.deliverAll(), b.deliverAll()]);
      expect(one + two).toBe(3000);
      expect(a.frames() + b.frames()).toBe(3000);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect(await auditBroadcast(database.url, followed)).toEqual({ recipients: 3000, doubled: 0, wrongUnread: 0, state: 'done', delivered: 3000 });
  });

  it('delivers to the rest, and to nobody twice, after the delivering process is killed mid-run', async () => {
    const followed = await seedBroadcastToFollowers(database.url, 5000);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const deliveredSoFar = async () =>
      Number((await client.query<{ n: string }>('select count(*) as n from direct_messages where broadcast_id = $1', [followed.broadcastId])).rows[0]!.n);
    try {
      const worker = spawn(process.execPath, ['--import', 'tsx', 'server/testing/broadcast-worker.ts', database.url, String(BATCH)], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      await eventually(deliveredSoFar, (n) => n >= BATCH, 60_000, 20);
      worker.kill('SIGKILL');
      await exited;
      const before = await deliveredSoFar();
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(5000);
      // What the killed run left: whole batches, the cursor and the count with them.
      const left = await client.query<{ delivered: number; cursor: string }>('select delivered, cursor from message_broadcasts where id = $1', [followed.broadcastId]);
      expect(left.rows[0]!.delivered).toBe(before);
      expect(Number(left.rows[0]!.cursor)).toBe(followed.followerIds[before - 1]);

      // Its claim lapses (time moved past it), and a restarted instance delivers the rest.
      await client.query(`update message_broadcasts set claimed_until = now() - interval '1 second' where id = $1`, [followed.broadcastId]);
      const runner = await broadcastRunner(database.url, { batchSize: BATCH });
      try {
        expect(await runner.deliverAll()).toBe(5000 - before);
      } finally {
        await runner.close();
      }
      expect(await auditBroadcast(database.url, followed)).toEqual({ recipients: 5000, doubled: 0, wrongUnread: 0, state: 'done', delivered: 5000 });
    } finally {
      await client.end();
    }
  });
});

/**
 * The database failing under a request: a connection terminated while a request's transaction holds it, a
 * lock held too long, a statement running too long. The process goes on, the request answers 503 with
 * Retry-After, and the next request is served on a new connection. PostgreSQL only: the embedded database
 * has one backend and no server to lose.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { suiteOnPostgres } from '../../testing/suite-needing';
import { MSG } from '../../../common/messages';
import { eventually } from '../../testing/eventually';
import { startTestApp, type TestApp } from '../../testing/harness';
import { WsClient } from '../../testing/ws-client';

suiteOnPostgres('database faults', () => {
  let t: TestApp;
  let side: pg.Client;
  beforeAll(async () => {
    // A lock wait long enough for the test to terminate the waiting backend first.
    t = await startTestApp({ DATABASE_LOCK_TIMEOUT_MS: '60000', DATABASE_STATEMENT_TIMEOUT_MS: '60000' });
    const { rows } = await t.resources.database.pool.query<{ url: string }>('select current_database() as url');
    side = new pg.Client({ connectionString: withDatabase(process.env.TEST_DATABASE_URL!, rows[0]!.url) });
    await side.connect();
  });
  afterAll(async () => {
    await side?.end();
    await t?.close();
  });

  const interestIds = async (client: Awaited<ReturnType<TestApp['given']['signedInUser']>>['client']) =>
    ((await client.get('/api/user/get-interest-list')).body.interests as Array<{ interest_id: number }>).map((i) => i.interest_id).slice(0, 3);

  it('answers 503 when the connection of a running transaction is terminated, and serves the next request', async () => {
    const { user, client } = await t.given.signedInUser();
    const ids = await interestIds(client);
    // The request's transaction reads the interests, then waits on this lock to replace the user's own.
    await side.query('begin');
    await side.query('lock table user_interests in access exclusive mode');
    const pending = client.post('/api/user/add-user-interest', { id: user.id, interest_ids: ids });
    const waiting = await eventually(
      async () => (await side.query(`select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`)).rows.length,
      (n) => n > 0,
    );
    expect(waiting).toBeGreaterThan(0);
    await side.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
    await side.query('rollback');

    const answer = await pending;
    expect(answer.status).toBe(503);
    expect(answer.headers['retry-after']).toMatch(/^\d+$/);
    expect(answer.body).toMatchObject({ response: 'unavailable', message: MSG.databaseUnreachable });
    // Nothing was committed, and the same call goes through on a new connection.
    expect((await client.post('/api/user/user-interest-list', { id: user.id })).body.interests).toEqual([]);
    expect((await client.post('/api/user/add-user-interest', { id: user.id, interest_ids: ids })).status).toBe(200);
    expect((await t.client().get('/readyz')).status).toBe(200);
  });

  it('answers 503 with Retry-After when a lock is held past the lock timeout', async () => {
    const short = await startTestApp({ DATABASE_LOCK_TIMEOUT_MS: '200' });
    try {
      const { rows } = await short.resources.database.pool.query<{ name: string }>('select current_database() as name');
      const held = new pg.Client({ connectionString: withDatabase(process.env.TEST_DATABASE_URL!, rows[0]!.name) });
      await held.connect();
      const { user, client } = await short.given.signedInUser();
      const ids = await interestIds(client);
      await held.query('begin');
      await held.query('lock table user_interests in access exclusive mode');
      const answer = await client.post('/api/user/add-user-interest', { id: user.id, interest_ids: ids });
      await held.query('rollback');
      await held.end();
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      expect(answer.body).toMatchObject({ response: 'unavailable', message: MSG.databaseBusy });
      expect((await client.post('/api/user/add-user-interest', { id: user.id, interest_ids: ids })).status).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('answers 503 with Retry-After over HTTP and `unavailable` over the socket when a statement runs past the statement timeout', async () => {
    const short = await startTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '300', DATABASE_LOCK_TIMEOUT_MS: '60000' });
    const { rows } = await short.resources.database.pool.query<{ name: string }>('select current_database() as name');
    const admin = new pg.Client({ connectionString: withDatabase(process.env.TEST_DATABASE_URL!, rows[0]!.name) });
    await admin.connect();
    try {
      const { user, client } = await short.given.signedInUser();
      const ids = await interestIds(client);
      const live = await short.given.liveStream();
      const channel = `stream:${live.streamId}`;
      const base = await short.app.listen({ host: '127.0.0.1', port: 0 });
      const socket = await WsClient.connect(base, client.cookie('ll_session'));
      expect(await socket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
      // Inserts into these tables now take a second: the statement runs past its 300 ms.
      await admin.query(`create function slow_insert() returns trigger language plpgsql as $$ begin perform pg_sleep(1); return new; end $$`);
      await admin.query('create trigger slow before insert on user_interests for each row execute function slow_insert()');
      await admin.query('create trigger slow before insert on chat_messages for each row execute function slow_insert()');

      const answer = await client.post('/api/user/add-user-interest', { id: user.id, interest_ids: ids });
      expect(answer.status).toBe(503);
      expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      expect(answer.body).toMatchObject({ response: 'unavailable', message: MSG.databaseBusy });
      expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: 'too slow', id: 'slow-1' }))
        .toEqual({ op: 'error', channel, id: 'slow-1', code: 'unavailable', message: MSG.databaseBusy });

      // Nothing was half-written, and once statements are quick again both go through.
      await admin.query('drop trigger slow on user_interests');
      await admin.query('drop trigger slow on chat_messages');
      expect((await client.post('/api/user/user-interest-list', { id: user.id })).body.interests).toEqual([]);
      expect((await client.post('/api/user/add-user-interest', { id: user.id, interest_ids: ids })).status).toBe(200);
      expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: 'quick again', id: 'slow-2' })).toEqual({ op: 'ack', id: 'slow-2' });
      const { rows: lines } = await admin.query<{ text: string }>('select text from chat_messages where stream_id = $1', [live.streamId]);
      expect(lines.map((line) => line.text)).toEqual(['quick again']);
      socket.close();
    } finally {
      await admin.end();
      await short.close();
    }
  });

  it('survives every connection of the pool terminated in rounds under requests', async () => {
    const { user, client } = await t.given.signedInUser();
    await client.csrf();
    const statuses = new Map<number, number>();
    for (let round = 0; round < 5; round++) {
      // Reads that go to the database together (decision 0078) beside a write: a failed batch is a 503 for each.
      const reads = [
        client.get('/api/user/session-detail'), client.get('/api/user/user-lookup', { id: user.id }),
        t.client().get('/api/channel/search-user', { search: user.username }), client.get('/api/channel/search-user', { search: user.username }),
      ];
      const requests = [...reads, ...Array.from({ length: 12 }, (_, i) => (i % 2 ? client.get('/api/user/get-interest-list') : client.post('/api/user/user-interest-list', { id: user.id })))];
      await side.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
      for (const answer of await Promise.all(requests)) {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
    }
    expect([...statuses.keys()].filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect((await eventually(() => t.client().get('/readyz'), (answer) => answer.status === 200)).status).toBe(200);
    expect((await client.get('/api/user/get-interest-list')).status).toBe(200);
    expect((await client.get('/api/user/user-lookup', { id: user.id })).body.user).toMatchObject({ user_id: user.id });
  });
});

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  parsed.searchParams.set('application_name', `faults-${randomUUID().slice(0, 8)}`);
  return parsed.toString();
}

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../testing/harness';
import { UPLOADS_PATH } from '../../common/api/posts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('health and observability', () => {
  // How fast it answers is measured in bench/http-baseline.ts; here: it answers at all during the write.
  it('answers /healthz while the database is busy with writes', async () => {
    const db = t.resources.database.db;
    await db.execute(sql`create table busy_work (id int, payload text)`);
    let writing = true;
    const writes = db
      .execute(sql`insert into busy_work select g, md5(g::text) || repeat('x', 200) from generate_series(1, 400000) g`)
      .finally(() => (writing = false));
    let answered = 0;
    let answeredWhileWriting = 0;
    while (writing && answered < 20) {
      const res = await t.client().get('/healthz');
      answered += 1;
      expect(res.status).toBe(200);
      if (writing) answeredWhileWriting += 1;
    }
    await writes;
    expect(answeredWhileWriting).toBeGreaterThan(0);
    const [row] = (await db.execute(sql`select count(*)::int as n from busy_work`)).rows as Array<{ n: number }>;
    expect(row?.n).toBe(400000);
  });

  it('is ready when the database answers', async () => {
    const res = await t.client().get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ response: 'success', status: 'ready' });
  });

  it('serves Prometheus metrics that count requests', async () => {
    await t.client().get('/api/meta/get-countries');
    const res = await t.client().get('/metrics');
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toMatch(/text\/plain/);
    expect(res.body as unknown as string).toMatch(/limelight_http_requests_total\{method="GET",route="\/api\/meta\/get-countries",status="200"\} \d+/);
  });

  it('answers metrics to callers on this machine only, not through a proxy', async () => {
    const forwarded = await t.client({ 'x-forwarded-for': '203.0.113.5' }).get('/metrics');
    expect(forwarded.status).toBe(403);
    expect(forwarded.body).toMatchObject({ response: 'forbidden' });
  });

  it('answers metrics to the bearer of METRICS_TOKEN from anywhere, and to no one else', async () => {
    const token = 'metrics-token-0123456789';
    const withToken = await startTestApp({ METRICS_TOKEN: token });
    try {
      expect((await withToken.client().get('/metrics')).status).toBe(403);
      expect((await withToken.client({ authorization: 'Bearer wrong-token-0123456789' }).get('/metrics')).status).toBe(403);
      const allowed = await withToken.client({ authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.5' }).get('/metrics');
      expect(allowed.status).toBe(200);
    } finally {
      await withToken.close();
    }
  });

  it('echoes a sane request id and makes one up otherwise', async () => {
    const given = await t.client({ 'x-request-id': 'trace-123' }).get('/healthz');
    expect(given.headers['x-request-id']).toBe('trace-123');
    const made = await t.client({ 'x-request-id': 'bad id with spaces' }).get('/healthz');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets security headers', async () => {
    const res = await t.client().get('/api/meta/app-config');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("default-src 'self'");
  });
});

describe('OpenAPI', () => {
  it('documents every call of the contract at /api/docs/json', async () => {
    const res = await t.client().get('/api/docs/json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, { requestBody?: unknown }>>;
    expect(paths['/api/user/user-register']?.post?.requestBody).toBeTruthy();
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/api/user/user-login', '/api/user/session-detail', '/api/meta/get-countries']));
    const ui = await t.client().get('/api/docs');
    expect([200, 302]).toContain(ui.status);
  });
});

describe('the envelope', () => {
  it('answers unknown API paths with a 404 envelope', async () => {
    const res = await t.client().get('/api/nothing/here');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ response: 'not_found' });
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await t.client().request('POST', '/api/user/user-login', { rawBody: '{"username": ' });
    expect(res.status).toBe(400);
    expect(res.body.response).toBe('bad_request');
  });

  it('answers an over-large body with 413', async () => {
    const res = await t.client().post('/api/user/user-login', { username: 'x'.repeat(2_000_000), password: 'y' });
    expect(res.status).toBe(413);
  });
});

describe('bad input on every route', () => {
  const garbageBodies: unknown[] = [
    'just a string',
    [1, 2, 3],
    42,
    null,
    { unexpected_field: 'surprise' },
    { id: 'not-a-number', username: { nested: true }, password: ['x'], interest_ids: 'abc', params: 'x' },
    { id: -1, username: 'x'.repeat(10_000), email: 'y'.repeat(10_000), locale: '💥'.repeat(500) },
    { id: 3_000_000_000, interest_ids: [3_000_000_000, 3_000_000_001, 3_000_000_002], stream_id: 3_000_000_000, stream_ids: [3_000_000_000] },
  ];
  const garbageQueries = ['?unexpected=1', '?id=abc', '?locale=' + 'x'.repeat(5000), '?id=-5&extra=1', '?id=3000000000', '?id=1e400'];

  it('never answers 500 and never changes data', async () => {
    const doc = (await t.client().get('/api/docs/json')).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => ({ path, method: m.toUpperCase() })));
    expect(routes.length).toBeGreaterThanOrEqual(12);
    const countRows = async () =>
      (await t.resources.database.db.execute(sql`select (select count(*) from users) + (select count(*) from user_interests) + (select count(*) from sessions) as n`)).rows;
    const before = await countRows();
    const user = await t.given.user();
    const signedIn = await t.given.signedIn(user);
    const afterSetup = await countRows();
    for (const client of [t.client(), signedIn]) {
      for (const { path, method } of routes) {
        if (method === 'GET') {
          for (const query of garbageQueries) {
            const res = await client.request('GET', `${path}${query}`);
            expect(res.status, `${method} ${path}${query.slice(0, 40)}`).toBeLessThan(500);
          }
        } else {
          for (const body of garbageBodies) {
            const res = await client.request(method as 'POST', path, { rawBody: JSON.stringify(body) });
            expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`).toBeGreaterThanOrEqual(400);
            expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`).toBeLessThan(500);
            // The upload server speaks tus, whose refusals are plain text; everything else answers the envelope.
            if (!path.startsWith(UPLOADS_PATH)) expect(typeof (res.body as { message?: unknown }).message).toBe('string');
          }
        }
      }
    }
    expect(afterSetup).not.toEqual(before); // the count sees a change: the user and its session
    expect(await countRows()).toEqual(afterSetup);
  });

  it('names the offending field', async () => {
    const res = await t.client().post('/api/user/user-login', { username: 'a', password: 'b', admin: true });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ response: 'validation', field: 'admin', message: 'Unknown field: admin' });
  });
});

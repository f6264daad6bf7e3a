/**
 * Signed-in sessions cached per instance (decision 0030), two instances on one PostgreSQL database and
 * Redis: a change made through one instance reaches the other's cache over the bus. The cache keeps
 * entries for five minutes here, so only the bus can explain a refusal.
 * Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { suiteNeeding } from '../../testing/suite-needing';
import { DEFAULT_PERMISSIONS } from '../../../common/permissions';
import { eventually } from '../../testing/eventually';
import { startSharedTestApps, type TestApp } from '../../testing/harness';
import { HttpSession } from '../../testing/http-session';
import { SESSION_COOKIE } from './sessions';

const redisUrl = process.env.TEST_REDIS_URL;

suiteNeeding('postgres', 'redis')('signed-in sessions cached per instance, scaled out over Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: HttpSession;

  beforeAll(async () => {
    [a, b] = (await startSharedTestApps(2, { REDIS_URL: redisUrl!, SESSION_CACHE_SECONDS: '300' })) as [TestApp, TestApp];
    admin = await a.given.signedIn(await a.given.user({ role: 'admin' }));
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** The same browser on instance B: its session cookie, carried over. */
  function onB(client: HttpSession): HttpSession {
    const there = HttpSession.over(b.app);
    there.setCookie(SESSION_COOKIE, client.cookie(SESSION_COOKIE)!);
    return there;
  }
  const status = (client: HttpSession, path = '/api/user/session-detail') => async () => (await client.get(path)).status;

  it('keeps a session it has read: a change that bypasses the bus is not seen until the entry expires', async () => {
    const user = await a.given.user();
    const there = onB(await a.given.signedIn(user));
    expect(await status(there)()).toBe(200);
    await b.resources.database.db.execute(sql`update users set account_status = 'suspended' where id = ${user.id}`);
    expect(await status(there)()).toBe(200);
  });

  it('refuses a signed-out session on the other instance', async () => {
    const client = await a.given.signedIn(await a.given.user());
    const there = onB(client);
    expect(await status(there)()).toBe(200);
    expect((await client.post('/api/user/logout')).status).toBe(200);
    expect(await eventually(status(there), (s) => s === 401)).toBe(401);
  });

  it('refuses a suspended user on the other instance', async () => {
    const user = await a.given.user();
    const there = onB(await a.given.signedIn(user));
    expect(await status(there)()).toBe(200);
    expect((await admin.post('/api/admin/user-suspend', { id: user.id, reason: 'Spam' })).status).toBe(200);
    expect(await eventually(status(there), (s) => s === 401)).toBe(401);
  });

  it('applies a revoked permission on the other instance', async () => {
    const user = await a.given.user({ perms: [...DEFAULT_PERMISSIONS, 'GRANT PERMISSION'] });
    const there = onB(await a.given.signedIn(user));
    expect(await status(there, '/api/admin/reports')()).toBe(200);
    expect((await admin.post('/api/admin/user-revoke', { id: user.id, perm: 'GRANT PERMISSION' })).status).toBe(200);
    expect(await eventually(status(there, '/api/admin/reports'), (s) => s === 404)).toBe(404);
    expect(await status(there)()).toBe(200);
  });

  it('ends the other sessions of a password change on the other instance', async () => {
    const user = await a.given.user();
    const kept = await a.given.signedIn(user);
    const there = onB(await a.given.signedIn(user));
    expect(await status(there)()).toBe(200);
    const changed = await kept.post('/api/user/change-password', { id: user.id, current_password: user.password, new_password: `${user.password}-2`, confirm_password: `${user.password}-2` });
    expect(changed.status).toBe(200);
    expect(await eventually(status(there), (s) => s === 401)).toBe(401);
    expect(await status(kept)()).toBe(200);
  });

  it('shows the session user as changed through the other instance at once: account fields, the adult agreement, a new stream key', async () => {
    const user = await a.given.user({ perms: [...DEFAULT_PERMISSIONS, 'CREATE STREAM_LIVE_PLUS14'] });
    const client = await a.given.signedIn(user);
    const there = onB(client);
    const seen = async () => (await there.get('/api/user/session-detail')).body.user as { description: string; adult_agreed: boolean; broadcast_key?: string };
    const before = await seen();
    expect(before.adult_agreed).toBe(false);
    expect((await client.post('/api/user/update-user-info', { id: user.id, params: { description: 'Changed on A' } })).status).toBe(200);
    expect((await client.post('/api/user/adult-agreement', {})).status).toBe(200);
    const key = (await client.post('/api/streams/regenerate-key', {})).body.broadcast_key as string;
    expect(key).not.toBe(before.broadcast_key);
    const after = await eventually(seen, (u) => u.description === 'Changed on A' && u.adult_agreed && u.broadcast_key === key);
    expect(after).toMatchObject({ description: 'Changed on A', adult_agreed: true, broadcast_key: key });
    // The instance that made the changes answers them at once: it forgets before the bus carries it.
    expect((await client.get('/api/user/session-detail')).body.user).toMatchObject({ description: 'Changed on A', adult_agreed: true, broadcast_key: key });
  });
});

import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackEventGet, trackEventPost } from '../../../common/api/tracking';
import { startTestApp, type TestApp } from '../../testing/harness';
import { trackingEvents } from './tables';

let t: TestApp;
beforeAll(async () => {
  // Trusting X-Forwarded-For lets the flood test call from an address of its own.
  t = await startTestApp({ TRUST_PROXY: 'on' });
});
afterAll(() => t.close());

async function eventsOf(tracker: string) {
  const rows = await t.resources.database.db
    .select()
    .from(trackingEvents)
    .where(eq(trackingEvents.tracker, tracker))
    .orderBy(asc(trackingEvents.id));
  return rows.map(({ id: _id, createdAt: _at, ...event }) => event);
}

describe('POST track-event', () => {
  it('stores a guest event and makes up a tracker id when none is given', async () => {
    const client = t.client({ 'user-agent': 'TrackingTest/1.0' });
    const res = await client.send(trackEventPost, { action: 'app_opened', referralCode: ' REF42 ', campaign: 'spring', id: 'ad-7' });
    expect(res.status).toBe(200);
    const tracker = (res.body.result as { tracker: string }).tracker;
    expect(tracker).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(await eventsOf(tracker)).toEqual([
      {
        action: 'app_opened',
        referralCode: 'REF42',
        campaign: 'spring',
        tracker,
        userId: null,
        refId: 'ad-7',
        ip: '127.0.0.1',
        userAgent: 'TrackingTest/1.0',
      },
    ]);

    const again = await client.send(trackEventPost, { action: 'app_opened', tracker });
    expect(again.body.result).toEqual({ tracker });
    expect(await eventsOf(tracker)).toHaveLength(2);
  });

  it('records the signed-in caller and never the user_id of the body', async () => {
    const me = await t.given.user();
    const someoneElse = await t.given.user();
    const client = await t.given.signedIn(me);
    await client.send(trackEventPost, { action: 'user_login', tracker: 'tracker-of-me', user_id: someoneElse.id });
    expect(await eventsOf('tracker-of-me')).toMatchObject([{ action: 'user_login', userId: me.id }]);

    await t.client().send(trackEventPost, { action: 'user_registered', tracker: 'tracker-of-guest', user_id: someoneElse.id });
    expect(await eventsOf('tracker-of-guest')).toMatchObject([{ userId: null }]);
  });

  it('refuses unknown actions, unknown fields and overlong text with the field named', async () => {
    const client = t.client();
    const cases = [
      [{ action: 'purchase' }, 'action'],
      [{}, 'action'],
      [{ action: 'app_opened', tracker: 'x'.repeat(65) }, 'tracker'],
      [{ action: 'app_opened', referralCode: 'x'.repeat(65) }, 'referralCode'],
      [{ action: 'app_opened', user_id: 'me' }, 'user_id'],
      [{ action: 'app_opened', admin: true }, 'admin'],
    ] as const;
    for (const [body, field] of cases) {
      const res = await client.post(trackEventPost.path, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ response: 'validation', field });
    }
  });

  it('refuses more than 100 events per address in 15 minutes, and nothing is stored past it', async () => {
    const client = t.client({ 'x-forwarded-for': '10.9.9.9' });
    const tracker = `flood-${Date.now()}`;
    for (let i = 0; i < 100; i++) {
      expect((await client.send(trackEventPost, { action: 'app_opened', tracker })).status).toBe(200);
    }
    const refused = await client.send(trackEventPost, { action: 'app_opened', tracker });
    expect(refused.status).toBe(429);
    expect(await eventsOf(tracker)).toHaveLength(100);
  });

  it('needs the CSRF token', async () => {
    const res = await t.client().request('POST', trackEventPost.path, { body: { action: 'app_opened' }, csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.response).toBe('csrf');
  });
});

describe('GET track-event', () => {
  it('answers a guest: not logged in, new until a login or registration is tracked for the tracker', async () => {
    const client = t.client();
    const opened = await client.send(trackEventPost, { action: 'app_opened' });
    const tracker = (opened.body.result as { tracker: string }).tracker;
    expect((await client.send(trackEventGet, { tracker })).body).toEqual({
      response: 'success',
      is_logged_in: false,
      is_new_user: true,
      user_id: 0,
    });
    await client.send(trackEventPost, { action: 'user_registered', tracker });
    expect((await client.send(trackEventGet, { tracker })).body).toMatchObject({ is_new_user: false });
    expect((await client.send(trackEventGet, {})).body).toMatchObject({ is_logged_in: false, is_new_user: true, user_id: 0 });
  });

  it('answers a signed-in user from their own events, whichever tracker recorded them', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    expect((await client.send(trackEventGet, {})).body).toEqual({
      response: 'success',
      is_logged_in: true,
      is_new_user: true,
      user_id: user.id,
    });
    await client.send(trackEventPost, { action: 'user_login', tracker: 'phone-tracker' });
    const fromLaptop = await client.send(trackEventGet, { tracker: 'laptop-tracker' });
    expect(fromLaptop.body).toMatchObject({ is_logged_in: true, is_new_user: false, user_id: user.id });
  });

  it('refuses an overlong tracker', async () => {
    const res = await t.client().get(trackEventGet.path, { tracker: 'x'.repeat(65) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'tracker' });
  });
});

import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import { multipartFile } from '../../testing/multipart';
import type { HttpSession } from '../../testing/http-session';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function me(client: HttpSession) {
  const res = await client.get('/api/user/session-detail');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.user as Record<string, unknown>;
}

describe('account fields', () => {
  it('changes only the fields that are sent', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const res = await client.post('/api/user/update-user-info', { id: user.id, params: { name: 'Ada Lovelace', prefix: 'MS', description: 'Numbers, live.' } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ fullname: 'Ada Lovelace', gender: 'MS', description: 'Numbers, live.', email: user.email });
    await client.post('/api/user/update-user-info', { id: user.id, params: { email: 'ADA@Example.com', current_password: user.password } });
    expect(await me(client)).toMatchObject({ email: 'ada@example.com', fullname: 'Ada Lovelace', description: 'Numbers, live.' });
  });

  it('needs the current password to change the email', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const without = await client.post('/api/user/update-user-info', { id: user.id, params: { email: 'new-address@example.com' } });
    expect(without.status).toBe(400);
    expect(without.body).toMatchObject({ field: 'current_password', message: MSG.currentPasswordForEmail });
    const wrong = await client.post('/api/user/update-user-info', { id: user.id, params: { email: 'new-address@example.com', current_password: 'guess' } });
    expect(wrong.body).toMatchObject({ field: 'current_password', message: MSG.currentPasswordWrong });
    expect((await me(client)).email).toBe(user.email);
    const same = await client.post('/api/user/update-user-info', { id: user.id, params: { email: user.email.toUpperCase(), name: 'Same Address' } });
    expect(same.status).toBe(200);
  });

  it('requires a full name once the user has one, and a valid, free email', async () => {
    const user = await t.given.user();
    const other = await t.given.user();
    const client = await t.given.signedIn(user);
    expect((await client.post('/api/user/update-user-info', { id: user.id, params: { name: '' } })).status).toBe(200);
    await client.post('/api/user/update-user-info', { id: user.id, params: { name: 'Grace' } });
    const cleared = await client.post('/api/user/update-user-info', { id: user.id, params: { name: '  ' } });
    expect(cleared.status).toBe(400);
    expect(cleared.body).toMatchObject({ message: MSG.fullNameRequired, field: 'name' });
    const invalid = await client.post('/api/user/update-user-info', { id: user.id, params: { email: 'nope' } });
    expect(invalid.body.message).toBe(MSG.emailInvalid);
    const taken = await client.post('/api/user/update-user-info', { id: user.id, params: { email: other.email, current_password: user.password } });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe(MSG.emailTaken);
    const empty = await client.post('/api/user/update-user-info', { id: user.id, params: {} });
    expect(empty.status).toBe(400);
    expect((await me(client)).fullname).toBe('Grace');
  });

  it("refuses to change another user's account", async () => {
    const victim = await t.given.user();
    const client = await t.given.signedIn(await t.given.user());
    expect((await client.post('/api/user/update-user-info', { id: victim.id, params: { name: 'Hacked' } })).status).toBe(403);
    expect((await t.client().post('/api/user/update-user-info', { id: victim.id, params: { name: 'Hacked' } })).status).toBe(401);
  });
});

describe('preferences', () => {
  it('starts from the defaults and changes only what is sent', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const initial = await client.get('/api/user/get-user-preferences', { id: user.id, sections: 'all' });
    expect(initial.body.preferences).toMatchObject({ filters: { stream_show_18plus: false }, notifications: { notify_stream_start: true, notify_via_text: false } });
    const updated = await client.post('/api/user/update-user-preferences', { id: user.id, params: { notify_chat: false, notify_via_push: false } });
    expect(updated.body.preferences).toMatchObject({ notifications: { notify_chat: false, notify_via_push: false, notify_stream_start: true } });
    const filters = await client.get('/api/user/get-user-preferences', { id: user.id, sections: 'filters' });
    expect(filters.body.preferences).toEqual({ filters: { stream_show_18plus: false } });
  });

  it('offers the 18+ switch only in the adult skin', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    expect((await client.post('/api/user/update-user-preferences', { id: user.id, params: { stream_show_18plus: true } })).status).toBe(400);
    const adult = await client.request('POST', '/api/user/update-user-preferences', {
      body: { id: user.id, params: { stream_show_18plus: true } },
      headers: { 'x-service': 'afterdark' },
    });
    expect(adult.body.preferences).toMatchObject({ filters: { stream_show_18plus: true } });
  });

  it("refuses another user's preferences", async () => {
    const victim = await t.given.user();
    const client = await t.given.signedIn(await t.given.user());
    expect((await client.get('/api/user/get-user-preferences', { id: victim.id })).status).toBe(403);
    expect((await client.post('/api/user/update-user-preferences', { id: victim.id, params: { notify_chat: false } })).status).toBe(403);
  });
});

describe('phone number and text messages', () => {
  it('stores a valid number in the international form, refuses others, and sends texts only with a number', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const texts = (on: boolean) => client.post('/api/user/update-user-preferences', { id: user.id, params: { notify_via_text: on } });
    const early = await texts(true);
    expect([early.status, early.body.message]).toEqual([400, MSG.phoneNeededForText]);
    for (const wrong of ['555 123 4567', '+1 555', 'call me maybe', '+1'.padEnd(40, '5')]) {
      const refused = await client.post('/api/user/update-user-info', { id: user.id, params: { phone: wrong } });
      expect([refused.status, refused.body.message], wrong).toEqual([400, MSG.phoneInvalid]);
    }
    expect((await me(client)).phone).toBeNull();
    const saved = await client.post('/api/user/update-user-info', { id: user.id, params: { phone: '+44 (20) 7946-0958' } });
    expect(saved.body.user).toMatchObject({ phone: '+442079460958' });
    expect((await texts(true)).body.preferences).toMatchObject({ notifications: { notify_via_text: true } });
    // Removing the number turns text messages off.
    await client.post('/api/user/update-user-info', { id: user.id, params: { phone: '' } });
    expect((await me(client)).phone).toBeNull();
    expect((await client.get('/api/user/get-user-preferences', { id: user.id })).body.preferences).toMatchObject({ notifications: { notify_via_text: false } });
  });
});

describe('the 18+ confirmation', () => {
  it('is remembered on the account, so another browser does not ask again; an under-18 birthday is refused', async () => {
    const user = await t.given.user();
    const laptop = await t.given.signedIn(user);
    expect((await me(laptop)).adult_agreed).toBe(false);
    expect((await laptop.post('/api/user/adult-agreement')).body).toMatchObject({ adult_agreed: true });
    const phone = await t.given.signedIn(user);
    expect((await me(phone)).adult_agreed).toBe(true);
    expect((await t.client().post('/api/user/adult-agreement')).status).toBe(401);

    const young = await t.given.user();
    await t.resources.database.db.execute(sql`update users set birthday = (now() - interval '16 years')::date where id = ${young.id}`);
    const refused = await (await t.given.signedIn(young)).post('/api/user/adult-agreement');
    expect([refused.status, refused.body.message]).toEqual([403, MSG.adultAgreementUnderAge]);
  });
});

describe('avatar', () => {
  const upload = (client: HttpSession, file: ReturnType<typeof multipartFile>) =>
    client.request('POST', '/api/user/upload-avatar', { rawBody: file.body, headers: { 'content-type': file.contentType } });

  it('stores a square WebP without metadata and serves it', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3a7' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret location', Artist: 'someone' } } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const res = await upload(client, multipartFile('file', 'me.txt', 'text/plain', photo));
    expect(res.status).toBe(200);
    const avatar = res.body.avatar as string;
    expect(avatar).toMatch(/^\/media\/avatars\/\d+-[0-9a-f]{16}\.webp$/);
    expect((await me(client)).avatar).toBe(avatar);

    const served = await t.client().request('GET', avatar);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const stored = await sharp(served.body as unknown as Buffer).metadata();
    expect(stored).toMatchObject({ format: 'webp', width: 512, height: 512 });
    expect(stored.exif).toBeUndefined();

    const replaced = await upload(client, multipartFile('file', 'b.png', 'image/png', await sharp({ create: { width: 64, height: 64, channels: 4, background: '#fff' } }).png().toBuffer()));
    expect(replaced.status).toBe(200);
    expect((await t.client().request('GET', avatar)).status).toBe(404);
  });

  it('refuses what is not an image, whatever its name says, and guests', async () => {
    const client = await t.given.signedIn(await t.given.user());
    const fake = await upload(client, multipartFile('file', 'cat.png', 'image/png', Buffer.from('<svg onload="alert(1)"></svg>')));
    expect(fake.status).toBe(400);
    expect(fake.body.message).toBe(MSG.notAnImage);
    const svg = await upload(client, multipartFile('file', 'a.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')));
    expect(svg.status).toBe(400);
    const noFile = await client.post('/api/user/upload-avatar', {});
    expect(noFile.status).toBeGreaterThanOrEqual(400);
    expect(noFile.status).toBeLessThan(500);
    const guest = await upload(t.client(), multipartFile('file', 'a.png', 'image/png', Buffer.from('x')));
    expect(guest.status).toBe(401);
  });

  it('refuses a form cut short (no closing boundary, or not even a part) with 400, not 500', async () => {
    const client = await t.given.signedIn(await t.given.user());
    const whole = multipartFile('file', 'a.png', 'image/png', Buffer.from('abc'));
    const cut = whole.body.subarray(0, whole.body.length - 10);
    for (const body of [cut, Buffer.from('valueOf_')]) {
      const res = await upload(client, { body, contentType: whole.contentType });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: MSG.notAnImage });
    }
  });

  it('refuses an image over 5 MB with the size message', async () => {
    const client = await t.given.signedIn(await t.given.user());
    const big = await upload(client, multipartFile('file', 'big.png', 'image/png', Buffer.alloc(5 * 1024 * 1024 + 10, 1)));
    expect(big.status).toBe(413);
    expect(big.body.message).toBe(MSG.avatarTooBig);
  });
});

describe('e-mail notification link', () => {
  it('lets the holder of a signed link switch e-mail notifications without signing in', async () => {
    const user = await t.given.user();
    const token = t.app.services.settings.emailLinkToken(user.id);
    const shown = await t.client().get('/api/user/email-notifications', { id: user.id, token });
    expect(shown.body).toMatchObject({ username: user.username, notify_via_email: true });
    const off = await t.client().post('/api/user/email-notifications', { id: user.id, token, notify_via_email: false });
    expect(off.body).toMatchObject({ notify_via_email: false });
    const client = await t.given.signedIn(user);
    const prefs = await client.get('/api/user/get-user-preferences', { id: user.id });
    expect((prefs.body.preferences as { notifications: { notify_via_email: boolean } }).notifications.notify_via_email).toBe(false);
  });

  it("refuses a forged link or another user's", async () => {
    const user = await t.given.user();
    const other = await t.given.user();
    const otherToken = t.app.services.settings.emailLinkToken(other.id);
    expect((await t.client().get('/api/user/email-notifications', { id: user.id, token: otherToken })).status).toBe(404);
    expect((await t.client().post('/api/user/email-notifications', { id: user.id, token: 'forged', notify_via_email: false })).status).toBe(404);
  });
});

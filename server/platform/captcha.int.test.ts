import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../common/messages';
import { startTestApp, type TestApp } from '../testing/harness';
import { solvedCaptcha } from '../testing/captcha';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: 'altcha' });
});
afterAll(() => t.close());

describe('captcha', () => {
  it('is announced in the app configuration', async () => {
    expect((await t.client().get('/api/meta/app-config')).body).toMatchObject({ captcha: true });
  });

  it('refuses sign-up and login without a solved challenge', async () => {
    const user = await t.given.user();
    const login = await t.client().post('/api/user/user-login', { username: user.username, password: user.password });
    expect(login.status).toBe(400);
    expect(login.body).toMatchObject({ field: 'altcha', message: MSG.captchaFailed });
    const forged = await t.client().post('/api/user/user-login', {
      username: user.username,
      password: user.password,
      altcha: Buffer.from('{"challenge":{},"solution":{}}').toString('base64'),
    });
    expect(forged.status).toBe(400);
  });

  it('accepts a solved challenge once, and refuses its replay', async () => {
    const user = await t.given.user();
    const client = t.client();
    const altcha = await solvedCaptcha(client);
    const first = await client.post('/api/user/user-login', { username: user.username, password: user.password, altcha });
    expect(first.status).toBe(200);
    const replay = await t.client().post('/api/user/user-login', { username: user.username, password: user.password, altcha });
    expect(replay.status).toBe(400);
    expect(replay.body.field).toBe('altcha');
  });

  it('lets a person sign up with a solved challenge', async () => {
    const client = t.client();
    const res = await client.post('/api/user/user-register', {
      username: 'captcha_person',
      email: 'captcha@example.com',
      password: 'long-enough-pass',
      birthday: '01-02-1999',
      country: 'FR',
      terms_accepted: true,
      altcha: await solvedCaptcha(client),
    });
    expect(res.status).toBe(200);
  });
});

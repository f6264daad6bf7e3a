/** Behind a proxy, the client address is the one the proxy saw, not whatever the client wrote first in X-Forwarded-For. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { loadConfig } from '../../config';
import { startTestApp, type TestApp } from '../../testing/harness';
import { signUpBody } from '../../testing/sign-up';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ TRUST_PROXY: 'on', SIGNUPS_PER_ADDRESS: '2' });
});
afterAll(() => t.close());

const signup = (n: number) => signUpBody(`proxied_${n}`);

describe('TRUST_PROXY', () => {
  it('takes the address the one trusted proxy saw: rotating the left-most value does not make a new client', async () => {
    const via = (forged: string) => t.client({ 'x-forwarded-for': `${forged}, 10.9.9.9` });
    expect((await via('6.6.6.1').post('/api/user/user-register', signup(1))).status).toBe(200);
    expect((await via('6.6.6.2').post('/api/user/user-register', signup(2))).status).toBe(200);
    const third = await via('6.6.6.3').post('/api/user/user-register', signup(3));
    expect(third.status).toBe(429);
    expect(third.body.message).toBe(MSG.tooManySignUps);
    // Another address seen by the proxy is another client.
    expect((await t.client({ 'x-forwarded-for': '6.6.6.3, 10.9.9.10' }).post('/api/user/user-register', signup(4))).status).toBe(200);
  });

  it('marks cookies Secure when the public address is https, whatever protocol the proxy in front spoke', async () => {
    const behindTls = await startTestApp({ PUBLIC_URL: 'https://live.example' });
    try {
      const res = await behindTls.client().get('/api/csrf-token');
      const cookies = [res.headers['set-cookie']].flat().join('\n');
      expect(cookies).toMatch(/ll_csrf=[^\n]*; Secure/i);
    } finally {
      await behindTls.close();
    }
    const plain = await t.client().get('/api/csrf-token');
    expect([plain.headers['set-cookie']].flat().join('\n')).not.toMatch(/Secure/i);
  });

  it('reads off, on, a number of proxies, or their addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'on' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16' }).trustProxy).toEqual(['10.0.0.1', '10.1.0.0/16']);
    expect(() => loadConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});

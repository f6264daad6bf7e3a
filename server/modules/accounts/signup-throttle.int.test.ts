import { afterAll, beforeAll, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import { signUpBody } from '../../testing/sign-up';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ SIGNUPS_PER_ADDRESS: '2' });
});
afterAll(() => t.close());

const signup = (n: number) => signUpBody(`throttled_${n}`);

it('limits how many accounts one address creates in 15 minutes', async () => {
  expect((await t.client().post('/api/user/user-register', signup(1))).status).toBe(200);
  expect((await t.client().post('/api/user/user-register', signup(2))).status).toBe(200);
  const third = await t.client().post('/api/user/user-register', signup(3));
  expect(third.status).toBe(429);
  expect(third.body.message).toBe(MSG.tooManySignUps);
  expect((await t.client().post('/api/user/user-login', { username: 'throttled_3', password: 'a-good-password' })).status).toBe(401);
});

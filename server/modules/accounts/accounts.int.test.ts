import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { LOGIN_THROTTLE } from '../../../common/constants';
import { DEFAULT_PERMISSIONS } from '../../../common/permissions';
import { solvedCaptcha } from '../../testing/captcha';
import { startTestApp, type TestApp } from '../../testing/harness';

let t: TestApp;
beforeAll(async () => {
  // Trusting X-Forwarded-For lets the throttling tests call from addresses of their own.
  t = await startTestApp({ TRUST_PROXY: 'on' });
});
afterAll(() => t.close());

let n = 0;
function signup(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    prefix: 'MS',
    username: `newcomer${n}`,
    email: `newcomer${n}@example.com`,
    password: 'a-good-password',
    confirm_password: 'a-good-password',
    birthday: '15-06-2000',
    country: 'CA',
    terms_accepted: true,
    ...overrides,
  };
}

describe('registration', () => {
  it('creates an account above 1000000 with the default permissions and signs it in', async () => {
    const client = t.client();
    const res = await client.post('/api/user/user-register', signup({ username: 'alice_1' }));
    expect(res.status).toBe(200);
    expect(res.body.response).toBe('success');
    const userId = res.body.user_id as number;
    expect(userId).toBeGreaterThan(1_000_000);
    expect(client.cookie('ll_session')).toBeTruthy();

    const me = await client.get('/api/user/session-detail');
    expect(me.status).toBe(200);
    const user = me.body.user as Record<string, unknown>;
    expect(user).toMatchObject({ user_id: userId, username: 'alice_1', role: 'user', terms_accepted: true, country: 'CA', gender: 'MS' });
    expect(user.perms).toEqual([...DEFAULT_PERMISSIONS].sort());
    expect(user.broadcast_key).toMatch(/^live_/);
    expect(user.env).toMatchObject({ stream_viewer_like_limit: 100 });
    expect(JSON.stringify(me.body)).not.toMatch(/password/i);
  });

  it.each([
    [{ birthday: undefined }, 'birthday', MSG.birthdayRequired],
    [{ birthday: '01-01-2099' }, 'birthday', MSG.birthdayInFuture],
    [{ birthday: '2000-01-01' }, 'birthday', MSG.birthdayInvalid],
    [{ country: '  ' }, 'country', MSG.countryRequired],
    [{ username: undefined }, 'username', MSG.usernameRequired],
    [{ username: 'no spaces allowed' }, 'username', MSG.usernameShape],
    [{ email: undefined }, 'email', MSG.emailRequired],
    [{ email: 'not-an-email' }, 'email', MSG.emailInvalid],
    [{ password: undefined, confirm_password: undefined }, 'password', MSG.passwordRequired],
    [{ password: 'short', confirm_password: 'short' }, 'password', MSG.passwordTooShort],
    [{ confirm_password: 'something-else' }, 'confirm_password', MSG.passwordsDoNotMatch],
    [{ terms_accepted: false }, 'terms_accepted', MSG.termsRequired],
    [{ prefix: 'SIR' }, 'prefix', 'Must be one of MISS, MS, MRS, MR, OTHER'],
    [{ is_admin: true }, 'is_admin', 'Unknown field: is_admin'],
    [{ username: 42 }, 'username', 'Must be text'],
    [{ email: `${'x'.repeat(300)}@example.com` }, 'email', 'Must be at most 254 characters'],
  ])('refuses %o with the spec message', async (overrides, field, message) => {
    const res = await t.client().post('/api/user/user-register', signup(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ response: 'validation' });
    expect((res.body.errors as Record<string, string>)[field]).toBe(message);
  });

  it('refuses anyone under 14, to the day', async () => {
    const today = new Date();
    const dd = String(today.getUTCDate()).padStart(2, '0');
    const mm = String(today.getUTCMonth() + 1).padStart(2, '0');
    const tomorrow14 = new Date(Date.UTC(today.getUTCFullYear() - 14, today.getUTCMonth(), today.getUTCDate() + 1));
    const young = `${String(tomorrow14.getUTCDate()).padStart(2, '0')}-${String(tomorrow14.getUTCMonth() + 1).padStart(2, '0')}-${tomorrow14.getUTCFullYear()}`;
    const tooYoung = await t.client().post('/api/user/user-register', signup({ birthday: young }));
    expect(tooYoung.status).toBe(400);
    expect(tooYoung.body.message).toBe(MSG.tooYoung);
    const justFourteen = await t.client().post('/api/user/user-register', signup({ birthday: `${dd}-${mm}-${today.getUTCFullYear() - 14}` }));
    expect(justFourteen.status).toBe(200);
  });

  it('answers 409 for a taken username or email, whatever the case, and creates nothing', async () => {
    await t.client().post('/api/user/user-register', signup({ username: 'Bob_taken', email: 'bob@example.com' }));
    const before = await t.resources.database.db.execute(sql`select count(*)::int as n from users`);
    const sameName = await t.client().post('/api/user/user-register', signup({ username: 'bob_TAKEN' }));
    expect(sameName.status).toBe(409);
    expect(sameName.body).toMatchObject({ response: 'conflict', message: MSG.usernameTaken, field: 'username' });
    const sameEmail = await t.client().post('/api/user/user-register', signup({ email: 'BOB@example.com' }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body).toMatchObject({ message: MSG.emailTaken, field: 'email' });
    const after = await t.resources.database.db.execute(sql`select count(*)::int as n from users`);
    expect(after.rows).toEqual(before.rows);
  });

  it('keeps the skin the account signed up in', async () => {
    const client = t.client({ 'x-service': 'miitv' });
    const res = await client.post('/api/user/user-register', signup());
    expect((res.body.user as { service: string }).service).toBe('miitv');
  });
});

describe('login and sessions', () => {
  it('signs in by username or email with trimmed input, and answers 401 with the server message', async () => {
    const user = await t.given.user();
    const byName = await t.client().post('/api/user/user-login', { username: `  ${user.username} `, password: ` ${user.password} ` });
    expect(byName.status).toBe(200);
    expect((byName.body.user as { username: string }).username).toBe(user.username);
    const byEmail = await t.client().post('/api/user/user-login', { username: user.email.toUpperCase(), password: user.password });
    expect(byEmail.status).toBe(200);
    const wrong = await t.client().post('/api/user/user-login', { username: user.username, password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ response: 'unauthorized', message: MSG.invalidCredentials });
    const unknown = await t.client().post('/api/user/user-login', { username: 'nobody-here', password: 'nope' });
    expect(unknown.body.message).toBe(MSG.invalidCredentials);
  });

  it('uses the spec messages for missing fields', async () => {
    const noUser = await t.client().post('/api/user/user-login', { username: ' ', password: 'x' });
    expect(noUser.body.message).toBe(MSG.usernameOrEmailRequired);
    const noPassword = await t.client().post('/api/user/user-login', { username: 'someone' });
    expect(noPassword.body.message).toBe(MSG.passwordRequired);
  });

  it('rotates the session at login: the old cookie no longer works', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const first = client.cookie('ll_session')!;
    await client.post('/api/user/user-login', { username: user.username, password: user.password });
    const second = client.cookie('ll_session')!;
    expect(second).not.toBe(first);
    const stale = t.client();
    stale.setCookie('ll_session', first);
    expect((await stale.get('/api/user/session-detail')).status).toBe(401);
    expect((await client.get('/api/user/session-detail')).status).toBe(200);
  });

  it('sets a persistent HttpOnly SameSite=Lax cookie with remember-me and a browser-session cookie without', async () => {
    const user = await t.given.user();
    const remembered = await t.client().post('/api/user/user-login', { username: user.username, password: user.password });
    const rememberedCookie = String(remembered.headers['set-cookie']);
    expect(rememberedCookie).toMatch(/ll_session=.*HttpOnly/);
    expect(rememberedCookie).toMatch(/SameSite=Lax/);
    expect(rememberedCookie).toMatch(/Expires=/);
    const forgetful = await t.client().post('/api/user/user-login', { username: user.username, password: user.password, rememberMe: false });
    expect(String(forgetful.headers['set-cookie'])).not.toMatch(/Expires=/);
  });

  it('ends idle and expired sessions', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    await t.resources.database.db.execute(sql`update sessions set expires_at = now() - interval '1 second' where user_id = ${user.id}`);
    expect((await client.get('/api/user/session-detail')).status).toBe(401);

    const idle = await t.given.signedIn(user);
    await t.resources.database.db.execute(sql`update sessions set last_seen_at = now() - interval '31 days' where user_id = ${user.id}`);
    expect((await idle.get('/api/user/session-detail')).status).toBe(401);
  });

  it('check-user-session and logout', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    expect((await client.get('/api/user/check-user-session')).body).toMatchObject({ is_logged_in: true, user_id: user.id });
    expect((await client.post('/api/user/logout')).status).toBe(200);
    expect((await client.get('/api/user/check-user-session')).body).toMatchObject({ is_logged_in: false, user_id: 0 });
    expect((await client.get('/api/user/session-detail')).status).toBe(401);
  });

  it('refuses suspended accounts', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    await t.resources.database.db.execute(sql`update users set account_status = 'suspended' where id = ${user.id}`);
    expect((await client.get('/api/user/session-detail')).status).toBe(401);
    const again = await t.client().post('/api/user/user-login', { username: user.username, password: user.password });
    expect(again.status).toBe(403);
    expect(again.body.message).toBe('Your account is suspended until further notice. Reason: not given. If you think this is a mistake, write to support@limelight.example.');
    // A wrong password says nothing of the suspension.
    const wrong = await t.client().post('/api/user/user-login', { username: user.username, password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe(MSG.invalidCredentials);
  });

  it('tells a suspended person until when and why, in their skin, and lets them in once it is over (audited)', async () => {
    const user = await t.given.user();
    const until = new Date(Date.now() + 3 * 86_400_000);
    await t.resources.database.db.execute(sql`update users set account_status = 'suspended', suspended_until = ${until.toISOString()}, suspension_reason = 'Spam in chat' where id = ${user.id}`);
    const refused = await t.client({ 'x-service': 'miitv' }).post('/api/user/user-login', { username: user.username, password: user.password });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ suspended_until: until.toISOString() });
    expect(refused.body.message).toBe(`Your account is suspended until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC. Reason: Spam in chat. If you think this is a mistake, write to support@miitv.example.`);
    await t.resources.database.db.execute(sql`update users set suspended_until = now() - interval '1 minute' where id = ${user.id}`);
    expect((await t.client().post('/api/user/user-login', { username: user.username, password: user.password })).status).toBe(200);
    const { rows } = await t.resources.database.db.execute<{ account_status: string; actor_id: number | null }>(sql`select u.account_status, a.actor_id from users u
      join audit_log a on a.target_type = 'user' and a.target_id = u.id::text and a.action = 'user.lift' where u.id = ${user.id}`);
    expect(rows).toEqual([{ account_status: 'active', actor_id: null }]);
  });

  it('asks for the strong captcha after repeated failures, and lets the owner in with it', async () => {
    const user = await t.given.user();
    const attacker = t.client({ 'x-forwarded-for': '10.1.0.1' });
    for (let i = 0; i < LOGIN_THROTTLE.perAccount; i++) {
      const res = await attacker.post('/api/user/user-login', { username: user.username, password: `guess-${i}` });
      expect(res.status).toBe(401);
      expect(res.body.response).toBe('unauthorized');
    }
    const owner = t.client({ 'x-forwarded-for': '10.1.0.9' });
    const unproven = await owner.post('/api/user/user-login', { username: user.username, password: user.password });
    expect(unproven.status).toBe(401);
    expect(unproven.body).toMatchObject({ response: 'proof_required', field: 'altcha', message: MSG.loginProofRequired });
    const standard = await owner.post('/api/user/user-login', { username: user.username, password: user.password, altcha: await solvedCaptcha(owner) });
    expect(standard.body.response).toBe('proof_required');
    const proven = await owner.post('/api/user/user-login', { username: user.username, password: user.password, altcha: await solvedCaptcha(owner, 'strong') });
    expect(proven.status).toBe(200);
    // A successful login forgives the account's failures.
    expect((await t.client().post('/api/user/user-login', { username: user.username, password: user.password })).status).toBe(200);
  });

  it('makes every guess past the limit pay the strong proof, also in parallel', async () => {
    const user = await t.given.user();
    const guesses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.client({ 'x-forwarded-for': '10.1.0.2' }).post('/api/user/user-login', { username: user.username, password: `parallel-${i}` }),
      ),
    );
    const answers = guesses.map((g) => g.body.response);
    expect(answers.filter((a) => a === 'unauthorized').length).toBeLessThanOrEqual(LOGIN_THROTTLE.perAccount);
    expect(answers.filter((a) => a === 'proof_required').length).toBeGreaterThanOrEqual(30 - LOGIN_THROTTLE.perAccount);
    // Refused proofs did not count: the account is still only over its limit by the passwords tried.
    const client = t.client({ 'x-forwarded-for': '10.1.0.3' });
    const guess = await client.post('/api/user/user-login', { username: user.username, password: 'one-more', altcha: await solvedCaptcha(client, 'strong') });
    expect(guess.body.response).toBe('unauthorized');
  });

  it('asks an address with many failures across accounts for the strong proof, not a wait', async () => {
    const address = { 'x-forwarded-for': '10.1.0.4' };
    for (let i = 0; i < LOGIN_THROTTLE.perAddress; i++) {
      expect((await t.client(address).post('/api/user/user-login', { username: `nobody_${i}`, password: 'guess' })).status).toBe(401);
    }
    const user = await t.given.user();
    const client = t.client(address);
    expect((await client.post('/api/user/user-login', { username: user.username, password: user.password })).body.response).toBe('proof_required');
    const proven = await client.post('/api/user/user-login', { username: user.username, password: user.password, altcha: await solvedCaptcha(client, 'strong') });
    expect(proven.status).toBe(200);
  });
});

describe('CSRF', () => {
  it('refuses a state-changing call without the token, or with a wrong one', async () => {
    const client = t.client();
    const missing = await client.request('POST', '/api/user/user-login', { body: { username: 'a', password: 'b' }, csrf: false });
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ response: 'csrf' });
    await client.csrf();
    const wrong = await client.request('POST', '/api/user/logout', { body: {}, csrf: false, headers: { 'x-csrf-token': 'forged' } });
    expect(wrong.status).toBe(403);
    expect(wrong.body.response).toBe('csrf');
  });

  it("does not accept another browser's token", async () => {
    const mine = t.client();
    const theirs = t.client();
    const token = await theirs.csrf();
    await mine.csrf();
    const res = await mine.request('POST', '/api/user/logout', { body: {}, csrf: false, headers: { 'x-csrf-token': token } });
    expect(res.status).toBe(403);
  });
});

describe('interests', () => {
  it('lists interests and stores at least three for the signed-in user', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const list = await client.get('/api/user/get-interest-list');
    const ids = (list.body.interests as Array<{ interest_id: number }>).map((i) => i.interest_id);
    expect(ids.length).toBeGreaterThanOrEqual(3);

    const tooFew = await client.post('/api/user/add-user-interest', { id: user.id, interest_ids: ids.slice(0, 2) });
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.message).toBe(MSG.interestsMin);

    const unknown = await client.post('/api/user/add-user-interest', { id: user.id, interest_ids: [...ids.slice(0, 2), 99_999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(MSG.interestUnknown);

    const ok = await client.post('/api/user/add-user-interest', { id: user.id, interest_ids: ids.slice(0, 3) });
    expect(ok.status).toBe(200);
    const mine = await client.post('/api/user/user-interest-list', { id: user.id });
    expect((mine.body.interests as unknown[]).length).toBe(3);
  });

  it("refuses to read or change another user's interests, and refuses guests", async () => {
    const owner = await t.given.user();
    const other = await t.given.signedIn(await t.given.user());
    expect((await other.post('/api/user/add-user-interest', { id: owner.id, interest_ids: [1, 2, 3] })).status).toBe(403);
    expect((await other.post('/api/user/user-interest-list', { id: owner.id })).status).toBe(403);
    expect((await t.client().post('/api/user/user-interest-list', { id: owner.id })).status).toBe(401);
    const admin = await t.given.signedIn(await t.given.user({ role: 'admin' }));
    expect((await admin.post('/api/user/user-interest-list', { id: owner.id })).status).toBe(200);
  });
});

describe('terms', () => {
  it('records acceptance for the user who had not accepted', async () => {
    const user = await t.given.user({ termsAccepted: false });
    const client = await t.given.signedIn(user);
    expect(((await client.get('/api/user/session-detail')).body.user as { terms_accepted: boolean }).terms_accepted).toBe(false);
    const res = await client.post('/api/user/update-user-info', { id: user.id, params: { terms_accepted: true } });
    expect(res.status).toBe(200);
    expect((res.body.user as { terms_accepted: boolean }).terms_accepted).toBe(true);
    const other = await t.given.signedIn(await t.given.user());
    expect((await other.post('/api/user/update-user-info', { id: user.id, params: { terms_accepted: false } })).status).toBe(403);
  });
});

describe('permissions', () => {
  it('shows the broadcast key only to users who may go live', async () => {
    const viewer = await t.given.user({ perms: ['CREATE STREAM_CHAT'] });
    const client = await t.given.signedIn(viewer);
    const user = (await client.get('/api/user/session-detail')).body.user as Record<string, unknown>;
    expect(user.perms).toEqual(['CREATE STREAM_CHAT']);
    expect(user).not.toHaveProperty('broadcast_key');
  });
});

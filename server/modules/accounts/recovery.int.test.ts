import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../../common/api/recovery';
import { listOutbox } from '../../../common/api/mail';
import { LOGIN_THROTTLE } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp, type TestUser } from '../../testing/harness';
import { recoveryCodeIn } from '../../testing/mail';
import type { HttpSession } from '../../testing/http-session';

let t: TestApp;
let admin: HttpSession;
beforeAll(async () => {
  // Trusting X-Forwarded-For lets each test call from its own address, so per-address limits stay apart.
  t = await startTestApp({ TRUST_PROXY: 'on' });
  admin = await t.given.signedIn(await t.given.user({ role: 'admin' }));
});
afterAll(() => t.close());

let addresses = 0;
function guest(headers: Record<string, string> = {}) {
  addresses += 1;
  return t.client({ 'x-forwarded-for': `10.0.${Math.floor(addresses / 250)}.${addresses % 250}`, ...headers });
}

async function mailsTo(email: string) {
  const res = await admin.send(listOutbox, { to: email });
  return res.body.messages as Array<{ to: string; subject: string; text: string }>;
}

async function sendCode(user: TestUser, client = guest()) {
  const res = await client.send(api.sendRecoveryCode, { username: user.username });
  expect(res.status).toBe(200);
  const [latest] = await mailsTo(user.email);
  return recoveryCodeIn(latest!.text);
}

async function codeRow(user: TestUser) {
  const res = await t.resources.database.db.execute(
    sql`select code_hash, failed_attempts, expires_at from recovery_codes where user_id = ${user.id}`,
  );
  return res.rows[0] as { code_hash: string; failed_attempts: number; expires_at: Date | string } | undefined;
}

const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');
const newPassword = 'a-brand-new-password';

describe('the five steps', () => {
  it('shows the masked address, mails a code, checks it, sets the new password and ends every session', async () => {
    const user = await t.given.user();
    const signedIn = await t.given.signedIn(user);
    const client = guest();

    const step2 = await client.send(api.getRecoveryEmail, { username: user.username });
    expect(step2.status).toBe(200);
    expect(step2.body).toEqual({ response: 'success', email: `${user.username[0]}***@t***.example` });

    const step3 = await client.send(api.sendRecoveryCode, { username: user.username });
    expect(step3.body).toEqual({ response: 'success', email: step2.body.email, expires_in_seconds: 900 });
    const [mail] = await mailsTo(user.email);
    expect(mail).toMatchObject({ to: user.email, subject: 'Your Limelight recovery code' });
    const code = recoveryCodeIn(mail!.text);

    const row = await codeRow(user);
    expect(row).toMatchObject({ failed_attempts: 0 });
    expect(row!.code_hash).not.toContain(code);
    const expiresIn = new Date(row!.expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(14 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(15 * 60_000);

    expect((await client.send(api.checkRecoveryCode, { username: user.username, recoveryCode: code })).status).toBe(200);
    const step4 = await client.send(api.resetPassword, {
      username: user.username,
      recoveryCode: code,
      userPassword: newPassword,
      confirmPassword: newPassword,
    });
    expect(step4.body).toEqual({ response: 'success' });

    expect((await signedIn.get('/api/user/session-detail')).status).toBe(401);
    const oldLogin = await t.client().post('/api/user/user-login', { username: user.username, password: user.password });
    expect(oldLogin.status).toBe(401);
    const newLogin = await t.client().post('/api/user/user-login', { username: user.username, password: newPassword });
    expect(newLogin.status).toBe(200);

    expect(await codeRow(user)).toBeUndefined();
    const reused = await client.send(api.checkRecoveryCode, { username: user.username, recoveryCode: code });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe(MSG.recoveryCodeInvalid);
  });

  it('forgives earlier failed sign-ins once the password is reset', async () => {
    const user = await t.given.user();
    const attacker = guest();
    for (let i = 0; i < LOGIN_THROTTLE.perAccount; i++) await attacker.post('/api/user/user-login', { username: user.email, password: `guess-${i}` });
    const locked = await guest().post('/api/user/user-login', { username: user.email, password: user.password });
    expect(locked.body.response).toBe('proof_required');
    const code = await sendCode(user);
    await guest().send(api.resetPassword, { username: user.username, recoveryCode: code, userPassword: newPassword });
    const after = await guest().post('/api/user/user-login', { username: user.email, password: newPassword });
    expect(after.status).toBe(200);
  });

  it('finds the account by email too, whatever the case, and names the skin in the subject', async () => {
    const user = await t.given.user();
    const res = await guest({ 'x-service': 'miitv' }).send(api.sendRecoveryCode, { username: ` ${user.email.toUpperCase()} ` });
    expect(res.status).toBe(200);
    expect((await mailsTo(user.email))[0]!.subject).toBe('Your MiiTV recovery code');
  });

  it('answers 404 for an unknown username at every step, and mails nothing', async () => {
    const client = guest();
    const username = 'nobody-by-this-name';
    for (const [def, input] of [
      [api.getRecoveryEmail, { username }],
      [api.sendRecoveryCode, { username }],
      [api.checkRecoveryCode, { username, recoveryCode: '123456' }],
      [api.resetPassword, { username, recoveryCode: '123456', userPassword: newPassword }],
    ] as const) {
      const res = await client.send(def, input);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ response: 'not_found', message: MSG.recoveryUserNotFound });
    }
    const kept = await t.resources.database.db.execute(sql`select count(*)::int as n from mail_outbox where "to" like 'nobody%'`);
    expect(kept.rows[0]).toEqual({ n: 0 });
  });
});

describe('codes', () => {
  it('mails an account at most ten codes a day, wherever the requests come from', async () => {
    const user = await t.given.user();
    // Nine codes of the day are spent already (the bucket refills over 24 hours).
    await t.resources.database.db.execute(sql`insert into throttle_buckets (key, tokens, at) values (${`recovery:day:${user.id}`}, 1, now())`);
    expect((await guest().send(api.sendRecoveryCode, { username: user.username })).status).toBe(200);
    const refused = await guest().send(api.sendRecoveryCode, { username: user.username });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ response: 'rate_limited', message: MSG.recoveryTooManyRequests });
    expect(await mailsTo(user.email)).toHaveLength(1);
    // Another account is not held back.
    const other = await t.given.user();
    expect((await guest().send(api.sendRecoveryCode, { username: other.username })).status).toBe(200);
  });

  it('counts wrong codes on both calls; the fifth ends the code until a new one is sent', async () => {
    const user = await t.given.user();
    const client = guest();
    const code = await sendCode(user);
    const wrong = otherThan(code);
    for (let i = 0; i < 3; i++) {
      const res = await client.send(api.checkRecoveryCode, { username: user.username, recoveryCode: wrong });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ response: 'validation', message: MSG.recoveryCodeInvalid, field: 'recoveryCode' });
    }
    const viaReset = await client.send(api.resetPassword, { username: user.username, recoveryCode: wrong, userPassword: newPassword });
    expect(viaReset.body.message).toBe(MSG.recoveryCodeInvalid);
    expect(await codeRow(user)).toMatchObject({ failed_attempts: 4 });

    const fifth = await client.send(api.checkRecoveryCode, { username: user.username, recoveryCode: wrong });
    expect(fifth.body.message).toBe(MSG.recoveryTooManyTries);
    for (const res of [
      await client.send(api.checkRecoveryCode, { username: user.username, recoveryCode: code }),
      await client.send(api.resetPassword, { username: user.username, recoveryCode: code, userPassword: newPassword }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(MSG.recoveryTooManyTries);
    }
    expect(await codeRow(user)).toMatchObject({ failed_attempts: 5 });

    const fresh = await sendCode(user);
    expect(await codeRow(user)).toMatchObject({ failed_attempts: 0 });
    expect((await client.send(api.checkRecoveryCode, { username: user.username, recoveryCode: fresh })).status).toBe(200);
  });

  it('a new code replaces the earlier one', async () => {
    const user = await t.given.user();
    const first = await sendCode(user);
    const second = await sendCode(user);
    const client = guest();
    if (first !== second) {
      const old = await client.send(api.checkRecoveryCode, { username: user.username, recoveryCode: first });
      expect(old.body.message).toBe(MSG.recoveryCodeInvalid);
    }
    expect((await client.send(api.checkRecoveryCode, { username: user.username, recoveryCode: second })).status).toBe(200);
  });

  it('refuses an expired code at both calls and leaves the password alone', async () => {
    const user = await t.given.user();
    const code = await sendCode(user);
    await t.resources.database.db.execute(sql`update recovery_codes set expires_at = now() - interval '1 second' where user_id = ${user.id}`);
    const client = guest();
    const check = await client.send(api.checkRecoveryCode, { username: user.username, recoveryCode: code });
    expect(check.status).toBe(400);
    expect(check.body.message).toBe(MSG.recoveryCodeExpired);
    const reset = await client.send(api.resetPassword, { username: user.username, recoveryCode: code, userPassword: newPassword });
    expect(reset.body.message).toBe(MSG.recoveryCodeExpired);
    expect((await t.client().post('/api/user/user-login', { username: user.username, password: user.password })).status).toBe(200);
  });

  it('refuses a code when none was sent', async () => {
    const user = await t.given.user();
    const res = await guest().send(api.checkRecoveryCode, { username: user.username, recoveryCode: '123456' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MSG.recoveryCodeInvalid);
  });
});

describe('rate limits', () => {
  it('mails at most five codes per account in 15 minutes, from any address', async () => {
    const user = await t.given.user();
    for (let i = 0; i < 5; i++) await sendCode(user);
    const limited = await guest().send(api.sendRecoveryCode, { username: user.username });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ response: 'rate_limited', message: MSG.recoveryTooManyRequests });
    expect(await mailsTo(user.email)).toHaveLength(5);
    expect((await guest().send(api.sendRecoveryCode, { username: (await t.given.user()).username })).status).toBe(200);
  });

  it('mails at most 30 codes per address in 15 minutes, whatever the account', async () => {
    const client = guest();
    for (let i = 0; i < 6; i++) {
      const user = await t.given.user();
      for (let j = 0; j < 5; j++) await sendCode(user, client);
    }
    const limited = await client.send(api.sendRecoveryCode, { username: (await t.given.user()).username });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(MSG.recoveryTooManyRequests);
  });

  it('slows down guessing usernames: 30 unknown names per address, then 429 for every name', async () => {
    const client = guest();
    for (let i = 0; i < 30; i++) {
      expect((await client.send(api.getRecoveryEmail, { username: `guess-${i}` })).status).toBe(404);
    }
    const known = await t.given.user();
    const limited = await client.send(api.getRecoveryEmail, { username: known.username });
    expect(limited.status).toBe(429);
    expect((await guest().send(api.getRecoveryEmail, { username: known.username })).status).toBe(200);
  });
});

describe('validation', () => {
  it.each([
    [api.getRecoveryEmail, { username: '  ' }, 'username', MSG.usernameOrEmailRequired],
    [api.sendRecoveryCode, {}, 'username', MSG.usernameOrEmailRequired],
    [api.checkRecoveryCode, { username: 'someone', recoveryCode: '' }, 'recoveryCode', MSG.recoveryCodeRequired],
    [api.checkRecoveryCode, { username: 'someone' }, 'recoveryCode', MSG.recoveryCodeRequired],
    [api.checkRecoveryCode, { username: 'someone', recoveryCode: '12a456' }, 'recoveryCode', MSG.recoveryCodeInvalid],
    [api.checkRecoveryCode, { username: 'someone', recoveryCode: '1234567' }, 'recoveryCode', 'Must be at most 6 characters'],
    [api.resetPassword, { username: 'someone', recoveryCode: '123456' }, 'userPassword', MSG.passwordRequired],
    [api.resetPassword, { username: 'someone', recoveryCode: '123456', userPassword: 'short' }, 'userPassword', MSG.passwordTooShort],
    [
      api.resetPassword,
      { username: 'someone', recoveryCode: '123456', userPassword: newPassword, confirmPassword: 'something-else' },
      'confirmPassword',
      MSG.passwordsDoNotMatch,
    ],
    [api.sendRecoveryCode, { username: 'someone', email: 'x@example.com' }, 'email', 'Unknown field: email'],
  ] as const)('%# refuses %o with the message for its field', async (def, input, field, message) => {
    const res = await guest().post(def.path, input);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ response: 'validation', field, message });
  });

  it('does not count a malformed code as a wrong try', async () => {
    const user = await t.given.user();
    await sendCode(user);
    await guest().send(api.checkRecoveryCode, { username: user.username, recoveryCode: 'abcdef' });
    expect(await codeRow(user)).toMatchObject({ failed_attempts: 0 });
  });

  it('needs the CSRF token like every state-changing call', async () => {
    const res = await guest().request('POST', api.sendRecoveryCode.path, { body: { username: 'someone' }, csrf: false });
    expect(res.status).toBe(403);
    expect(res.body.response).toBe('csrf');
  });
});

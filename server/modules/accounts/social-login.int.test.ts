import { eq, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCIAL_CODES, SOCIAL_ERRORS } from '../../../common/api/social-login';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import { HttpBrowser } from '../../testing/http-session';
import { startTestOidcProvider, type TestAccount, type TestOidcProvider } from '../../testing/oidc-provider';
import { oauthFlows, socialIdentities, socialTickets, users } from './tables';

let idp: TestOidcProvider;
let t: TestApp;
let base: string;

beforeAll(async () => {
  idp = await startTestOidcProvider();
  t = await startTestApp({ ...idp.env('google'), ...idp.env('apple'), ...idp.env('facebook') });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

const db = () => t.resources.database.db;
let accounts = 0;
/** A fresh provider account for each test, so identities never collide. */
function newAccount(overrides: Partial<TestAccount> = {}): TestAccount {
  accounts += 1;
  const account = { sub: `sub-${accounts}`, email: `social${accounts}@example.com`, email_verified: true, name: `Social Person ${accounts}`, ...overrides };
  idp.signInAs(account);
  return account;
}

function signIn(browser: HttpBrowser, provider = 'google', service = 'limelight') {
  return browser.navigate(`${base}/api/auth/${provider}/start?service=${service}`);
}

/** Runs the dance up to the moment the provider sends the browser back to the app's callback. */
function untilCallback(browser: HttpBrowser, provider = 'google') {
  return browser.navigate(`${base}/api/auth/${provider}/start`, (url) => url.pathname === `/api/auth/${provider}/callback`);
}

const moreInfo = (ticket: string, overrides: Record<string, unknown> = {}) => ({
  social_media_type: 'google',
  social_media_token: ticket,
  username: `member${accounts}`,
  birthday: '15-06-2000',
  country: 'CA',
  terms_accepted: true,
  ...overrides,
});

describe('social sign-in with a real OpenID provider', () => {
  it('offers the configured providers', async () => {
    const res = await t.client().get('/api/meta/app-config');
    expect(res.body.social).toEqual({ google: true, apple: true, facebook: true });
    const doc = await t.client().get('/api/docs/json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths as object)).toEqual(
      expect.arrayContaining(['/api/auth/google/start', '/api/auth/apple/callback', '/api/user/user-social-register']),
    );
  });

  it('signs up a new identity through More Info Needed, then signs it straight in', async () => {
    const account = newAccount({ name: 'Jane Q. Public' });
    const browser = new HttpBrowser(base);

    const landing = await signIn(browser);
    expect(landing.pathname).toBe('/user/login');
    expect(landing.searchParams.get('type')).toBe('google');
    const ticket = landing.searchParams.get('social') ?? '';
    expect(ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(browser.cookie(base, 'll_oauth_state')).toBeUndefined();

    const unknown = await browser.call('/api/user/user-social-login', { type: 'google', token: ticket });
    expect(unknown.status).toBe(409);
    expect(unknown.body).toEqual({
      response: SOCIAL_CODES.create,
      message: MSG.moreInfoNeeded,
      email: account.email,
      suggested_username: 'janeq.public',
    });

    const created = await browser.call('/api/user/user-social-register', moreInfo(ticket, { username: 'jane_public' }));
    expect(created.status).toBe(200);
    const userId = (created.body as { user_id: number }).user_id;
    expect(userId).toBeGreaterThan(1_000_000);
    expect((created.body as { user: Record<string, unknown> }).user).toMatchObject({
      username: 'jane_public',
      email: account.email,
      fullname: 'Jane Q. Public',
      country: 'CA',
      terms_accepted: true,
    });
    const me = await browser.call('/api/user/session-detail');
    expect(me.status).toBe(200);
    expect((me.body as { user: { user_id: number } }).user.user_id).toBe(userId);

    const [row] = await db().select().from(users).where(eq(users.id, userId));
    expect(row?.passwordHash).toBeNull();
    expect(await db().select().from(socialIdentities).where(eq(socialIdentities.userId, userId))).toHaveLength(1);
    // Signed in, a ticket is not even looked at; signed out, the spent ticket is refused.
    const whileSignedIn = await browser.call('/api/user/user-social-register', moreInfo(ticket, { username: 'jane_again' }));
    expect(whileSignedIn.status).toBe(409);
    expect(whileSignedIn.body).toMatchObject({ message: MSG.alreadySignedIn });

    expect((await browser.call('/api/user/logout', {})).status).toBe(200);
    expect((await browser.call('/api/user/session-detail')).status).toBe(401);
    const again = await browser.call('/api/user/user-social-register', moreInfo(ticket, { username: 'jane_again' }));
    expect(again.status).toBe(400);

    const second = await signIn(browser);
    expect(second.pathname + second.search).toBe('/channel/group');
    const back = await browser.call('/api/user/session-detail');
    expect((back.body as { user: { user_id: number } }).user.user_id).toBe(userId);
  });

  it("binds a ticket to the browser that finished the flow: sent to someone else, or to a signed-in browser, it signs no one in", async () => {
    newAccount({ name: 'Mallory Attacker' });
    const attacker = new HttpBrowser(base);
    const ticket = (await signIn(attacker)).searchParams.get('social') ?? '';

    // The victim opens the attacker's link: their browser has no binder cookie.
    const victim = new HttpBrowser(base);
    const lookup = await victim.call('/api/user/user-social-login', { type: 'google', token: ticket });
    expect(lookup.status).toBe(400);
    const register = await victim.call('/api/user/user-social-register', moreInfo(ticket, { username: 'mallory_victim' }));
    expect(register.status).toBe(400);
    expect((await victim.call('/api/user/session-detail')).status).toBe(401);

    // A victim who is signed in is never switched to another account.
    const signedIn = await t.given.user();
    const victimSession = new HttpBrowser(base);
    expect((await victimSession.call('/api/user/user-login', { username: signedIn.username, password: signedIn.password })).status).toBe(200);
    const switched = await victimSession.call('/api/user/user-social-login', { type: 'google', token: ticket });
    expect(switched.status).toBe(409);
    expect((await victimSession.call('/api/user/session-detail')).body).toMatchObject({ user: { user_id: signedIn.id } });

    // The browser that finished the flow still can.
    expect((await attacker.call('/api/user/user-social-login', { type: 'google', token: ticket })).status).toBe(409);
  });

  it('voids the other tickets of an identity once it is linked', async () => {
    newAccount({ name: 'Twice Started' });
    const first = new HttpBrowser(base);
    const firstTicket = (await signIn(first)).searchParams.get('social') ?? '';
    const second = new HttpBrowser(base);
    const secondTicket = (await signIn(second)).searchParams.get('social') ?? '';
    expect((await first.call('/api/user/user-social-register', moreInfo(firstTicket, { username: 'twice_started' }))).status).toBe(200);
    const left = await db().select().from(socialTickets).where(eq(socialTickets.ticketHash, createHash('sha256').update(secondTicket).digest('hex')));
    expect(left).toHaveLength(0);
    expect((await second.call('/api/user/user-social-login', { type: 'google', token: secondTicket })).status).toBe(400);
  });

  it('checks More Info Needed like sign-up and keeps the ticket until it succeeds', async () => {
    newAccount();
    const browser = new HttpBrowser(base);
    const ticket = (await signIn(browser)).searchParams.get('social') ?? '';
    const taken = await t.given.user();

    const cases: Array<[Record<string, unknown>, number, string, string]> = [
      [{ birthday: '01-01-2099' }, 400, 'birthday', MSG.birthdayInFuture],
      [{ country: ' ' }, 400, 'country', MSG.countryRequired],
      [{ terms_accepted: false }, 400, 'terms_accepted', MSG.termsRequired],
      [{ username: undefined }, 400, 'username', MSG.usernameRequired],
      [{ username: taken.username.toUpperCase() }, 409, 'username', MSG.usernameTaken],
      [{ social_media_token: 'not-a-ticket' }, 400, 'social_media_token', MSG.socialFailed],
    ];
    for (const [overrides, status, field, message] of cases) {
      const res = await browser.call('/api/user/user-social-register', moreInfo(ticket, overrides));
      expect(res.status, JSON.stringify(overrides)).toBe(status);
      expect((res.body as { errors: Record<string, string> }).errors[field]).toBe(message);
    }
    const ok = await browser.call('/api/user/user-social-register', moreInfo(ticket));
    expect(ok.status).toBe(200);
  });

  it('refuses a tampered state, a replayed callback and a callback opened in another browser', async () => {
    newAccount();
    const browser = new HttpBrowser(base);
    const callback = await untilCallback(browser);

    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    expect((await browser.navigate(tampered)).search).toBe(`?social_error=${SOCIAL_ERRORS.failed}`);

    const stranger = new HttpBrowser(base);
    expect((await stranger.navigate(callback)).search).toBe(`?social_error=${SOCIAL_ERRORS.failed}`);
    // The state was spent by the stranger's attempt: its own browser cannot use it any more either.
    expect((await browser.navigate(callback)).search).toBe(`?social_error=${SOCIAL_ERRORS.failed}`);

    const finished = new HttpBrowser(base);
    const good = await untilCallback(finished);
    expect((await finished.navigate(good)).searchParams.get('social')).toBeTruthy();
    expect((await finished.navigate(good)).search).toBe(`?social_error=${SOCIAL_ERRORS.failed}`);
  });

  it.each([
    ['nonce', { nonce: 'not-the-nonce-of-this-flow' }],
    ['PKCE verifier', { codeVerifier: 'a'.repeat(43) }],
  ])('refuses the ID token of a flow whose %s does not match', async (_what, change) => {
    newAccount();
    const browser = new HttpBrowser(base);
    const callback = await untilCallback(browser);
    const state = callback.searchParams.get('state') ?? '';
    await db().update(oauthFlows).set(change).where(eq(oauthFlows.state, state));
    const before = await db().select({ n: sql<number>`count(*)::int` }).from(socialTickets);

    expect((await browser.navigate(callback)).search).toBe(`?social_error=${SOCIAL_ERRORS.failed}`);
    const after = await db().select({ n: sql<number>`count(*)::int` }).from(socialTickets);
    expect(after[0]?.n).toBe(before[0]?.n);
  });

  it('sends an identity whose email has an account to log in directly', async () => {
    const owner = await t.given.user();
    newAccount({ email: owner.email.toUpperCase() });
    const landing = await signIn(new HttpBrowser(base));
    expect(landing.search).toBe(`?social_error=${SOCIAL_CODES.emailExists}`);
  });

  it('answers ARGS_INVALID_EMAIL_EXIST_DB when the email got an account after the ticket', async () => {
    const late = `late${accounts}`;
    newAccount({ email: `${late}@test.example` });
    const browser = new HttpBrowser(base);
    const ticket = (await signIn(browser)).searchParams.get('social') ?? '';
    await t.given.user({ username: late });

    const login = await browser.call('/api/user/user-social-login', { type: 'google', token: ticket });
    expect(login.status).toBe(409);
    expect(login.body).toEqual({ response: SOCIAL_CODES.emailExists, message: MSG.socialEmailExists });
    const register = await browser.call('/api/user/user-social-register', moreInfo(ticket));
    expect(register.status).toBe(409);
    expect((register.body as { response: string }).response).toBe(SOCIAL_CODES.emailExists);
  });

  it('refuses an identity without a verified email, and a suspended account', async () => {
    newAccount({ email_verified: false });
    expect((await signIn(new HttpBrowser(base))).search).toBe(`?social_error=${SOCIAL_ERRORS.failed}`);

    newAccount();
    const browser = new HttpBrowser(base);
    const ticket = (await signIn(browser)).searchParams.get('social') ?? '';
    const created = await browser.call('/api/user/user-social-register', moreInfo(ticket));
    const userId = (created.body as { user_id: number }).user_id;
    await db().update(users).set({ accountStatus: 'suspended' }).where(eq(users.id, userId));
    expect((await signIn(new HttpBrowser(base))).search).toBe(`?social_error=${SOCIAL_ERRORS.failed}`);
  });

  it('refuses unknown and expired tickets', async () => {
    newAccount();
    const browser = new HttpBrowser(base);
    const ticket = (await signIn(browser)).searchParams.get('social') ?? '';
    const wrongType = await browser.call('/api/user/user-social-login', { type: 'apple', token: ticket });
    expect(wrongType.status).toBe(400);
    await db().update(socialTickets).set({ expiresAt: new Date(Date.now() - 1000) });
    const expired = await browser.call('/api/user/user-social-login', { type: 'google', token: ticket });
    expect(expired.status).toBe(400);
    expect(expired.body).toMatchObject({ response: 'validation', message: MSG.socialFailed });
    const missing = await browser.call('/api/user/user-social-login', { type: 'google' });
    expect(missing.status).toBe(400);
  });

  it('completes Apple through its cross-site form_post callback', async () => {
    const account = newAccount();
    const browser = new HttpBrowser(base);
    const landing = await signIn(browser, 'apple', 'afterdark');
    expect(landing.pathname).toBe('/afterdark/user/login');
    expect(landing.searchParams.get('type')).toBe('apple');
    const login = await browser.call('/api/user/user-social-login', { type: 'apple', token: landing.searchParams.get('social') });
    expect(login.body).toMatchObject({ response: SOCIAL_CODES.create, email: account.email });
  });

  it('signs in with Facebook through the Graph API, and needs its email permission', async () => {
    const account = newAccount();
    const browser = new HttpBrowser(base);
    const landing = await signIn(browser, 'facebook', 'miitv');
    expect(landing.pathname).toBe('/miitv/user/login');
    expect(landing.searchParams.get('type')).toBe('facebook');
    const login = await browser.call('/api/user/user-fb-login', { token: landing.searchParams.get('social') });
    expect(login.status).toBe(409);
    expect(login.body).toMatchObject({ response: SOCIAL_CODES.create, email: account.email });

    newAccount({ email: undefined });
    expect((await signIn(new HttpBrowser(base), 'facebook')).search).toBe(`?social_error=${SOCIAL_ERRORS.facebookEmailScope}`);
  });

  it('keeps Facebook sign-in closed in the skin that migrated away from it', async () => {
    const start = await t.client().get('/api/auth/facebook/start', { service: 'personas' });
    expect(start.status).toBe(403);
    expect(start.body).toEqual({ response: 'forbidden', message: MSG.facebookMigrated });
    const client = t.client({ 'x-service': 'personas' });
    const fb = await client.post('/api/user/user-fb-login', { token: 'anything' });
    expect(fb.status).toBe(403);
    const social = await client.post('/api/user/user-social-login', { type: 'facebook', token: 'anything' });
    expect(social.status).toBe(403);
    const register = await client.post('/api/user/user-social-register', moreInfo('anything', { social_media_type: 'facebook' }));
    expect(register.status).toBe(403);
  });
});

describe('social sign-in not configured or unreachable', () => {
  let bare: TestApp;
  beforeAll(async () => {
    // Google points at a closed port; Apple and Facebook are not configured at all.
    bare = await startTestApp({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', GOOGLE_ISSUER: 'http://127.0.0.1:9/' });
  });
  afterAll(() => bare?.close());

  it('answers 404 for a provider without client settings and hides its button', async () => {
    const config = await bare.client().get('/api/meta/app-config');
    expect(config.body.social).toEqual({ google: true, apple: false, facebook: false });
    for (const path of ['/api/auth/apple/start', '/api/auth/facebook/callback?state=x', '/api/auth/twitter/start']) {
      const res = await bare.client().get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ response: 'not_found' });
    }
  });

  it('sends the browser back to the login page when the provider cannot be reached', async () => {
    const res = await bare.client().get('/api/auth/google/start', { service: 'miitv' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`/miitv/user/login?social_error=${SOCIAL_ERRORS.failed}`);
  });
});

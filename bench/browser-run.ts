/**
 * Benchmarks that drive the built web app: the server in its own process and chromium, started side by
 * side; a paid video call set up through the API, and one signed-in browser context per person.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from '../e2e/support/browser';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { HttpSession } from '../server/testing/http-session';
import { startServerProcess } from '../server/testing/server';

const TEST_CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123', name: 'Bench Caller' };

export async function startServerAndBrowser() {
  if (!existsSync(path.resolve(process.env.WEB_DIST ?? 'dist/web', 'index.html'))) {
    console.error('The web app is not built: run `npm run build:web` first.');
    process.exit(1);
  }
  return Promise.all([startServerProcess({}, process.env.BENCH_SERVER_LOG ? { logFile: process.env.BENCH_SERVER_LOG } : {}), launchBrowser()]);
}

/** Buys the smallest coin package of at least `atLeast` coins with the test card. */
export async function buyCoins(session: HttpSession, atLeast: number): Promise<void> {
  const { packages } = await session.api<{ packages: { package_id: number; coins: number }[] }>('/api/wallet/coin-packages');
  const pack = packages.filter((p) => p.coins >= atLeast).sort((a, b) => a.coins - b.coins)[0];
  if (!pack) throw new Error(`no coin package of ${atLeast} coins or more`);
  await session.api('/api/wallet/deposit-coins', { package_id: pack.package_id, payment_method: 'card', card: TEST_CARD });
}

/** Makes `username` follow the host (an invitee must). */
async function follower(base: string, username: string, hostId: number): Promise<{ session: HttpSession; userId: number }> {
  const session = await HttpSession.at(base).signIn(username, DEMO_PASSWORD);
  const me = await session.api<{ user: { user_id: number } }>('/api/user/session-detail');
  const following = await session.api<{ following: unknown[] }>(`/api/user/following?id=${me.user.user_id}&fid=${hostId}`);
  if (following.following.length === 0) await session.api('/api/user/toggle-following', { id: hostId, isFollowing: true });
  return { session, userId: me.user.user_id };
}

async function payMeeting(session: HttpSession, meetingId: number, amount: number): Promise<void> {
  const res = await session.request<{ paid?: boolean; message?: string }>('POST', '/api/user/pay-meeting', {
    body: { id: meetingId, amount },
    headers: { 'idempotency-key': randomUUID() },
  });
  if (res.status !== 200 || !res.body.paid) throw new Error(`pay-meeting: ${res.status} ${res.body.message ?? ''}`);
}

export interface PaidMeeting {
  hostId: number;
  meetingId: number;
  /** The room's page. */
  room: string;
  invitees: { session: HttpSession; userId: number }[];
}

/** A private video call of `host`'s, started now; every invitee follows the host, buys coins and pays its `tip`. */
export async function paidMeeting(base: string, host: string, invitees: readonly string[], title: string, tip = 250): Promise<PaidMeeting> {
  const session = await HttpSession.at(base).signIn(host, DEMO_PASSWORD);
  const hostId = (await session.api<{ user: { user_id: number } }>('/api/user/session-detail')).user.user_id;
  const people = [];
  for (const name of invitees) people.push(await follower(base, name, hostId));
  const created = await session.api<{ data: { meeting_id: number } }>('/api/user/create-meeting', {
    audience: 'PRIVATE',
    audience_ids: people.map((i) => i.userId).join(','),
    title,
    start_time: new Date().toISOString(),
    tip_rules: { currency: 'CON', viewer_min_amount: tip },
  });
  const meetingId = created.data.meeting_id;
  for (const person of people) {
    await buyCoins(person.session, tip);
    await payMeeting(person.session, meetingId, tip);
  }
  return { hostId, meetingId, room: `/streams/meeting-view?id=${meetingId}`, invitees: people };
}

/** Page functions compiled by tsx call a naming helper the page lacks: every page of `context` gets a stand-in. */
export async function allowNamedFunctions(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: 'window.__name = (f) => f;' });
}

/**
 * A page of its own (cookies, storage) signed in as `username`, with the call policy notice already
 * read; `prepare` sees the context first (init scripts, traces).
 */
export async function personPage(browser: Browser, base: string, username: string, prepare?: (context: BrowserContext) => Promise<void>): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: base });
  await context.addInitScript(() => localStorage.setItem('dontShowVideoCallPolicy', 'true'));
  if (prepare) await prepare(context);
  const page = await context.newPage();
  await page.goto('/api/csrf-token');
  const status = await page.evaluate(async ({ username, password }) => {
    const { token } = (await (await fetch('/api/csrf-token')).json()) as { token: string };
    const res = await fetch('/api/user/user-login', { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': token }, body: JSON.stringify({ username, password }) });
    return res.status;
  }, { username, password: DEMO_PASSWORD });
  if (status !== 200) throw new Error(`${username} could not sign in in the page: ${status}`);
  return page;
}

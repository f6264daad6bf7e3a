/** Get Popular: impressions put a broadcaster's live stream first in Popular and each visitor shown it spends one per window. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpSession } from '../../testing/http-session';
import { eventually } from '../../testing/eventually';
import { startTestApp, type TestApp } from '../../testing/harness';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import { createLedger } from '../ledger/service';
import { createImpressionMeter, SHOWING_WINDOW_MS } from './impression-meter';

let t: TestApp;
beforeAll(async () => {
  // Each test request names its own address, so guests at different addresses are different visitors.
  t = await startTestApp({ TRUST_PROXY: 'on' });
});
afterAll(() => closeCheckingLedger(t));

const ledger = () => createLedger({ db: t.resources.database.db });

async function popular(client: HttpSession = t.client()) {
  const channels = (await client.get('/api/channel/base-group')).body.channels as Array<{ id: number; name: string }>;
  const id = channels.find((c) => c.name === 'Popular')!.id;
  return ((await client.get('/api/channel/list-channel-streams', { id })).body.streams as Array<{ stream_id: number }>).map((s) => s.stream_id);
}

/** Impressions bought with coins (a coin each), as the wallet's impressions packages sell them. */
async function promote(userId: number, impressions: number) {
  await t.given.coins(userId, impressions);
  await ledger().transfer({
    kind: 'impressions', idempotencyKey: `promo-${userId}-${impressions}-${Math.random()}`, fromUserId: userId, amount: impressions, currency: 'CON',
    legs: [
      { account: { userId, currency: 'CON' }, amount: -impressions },
      { account: { system: 'sales', currency: 'CON' }, amount: impressions },
      { account: { system: 'mint', currency: 'IMP' }, amount: -impressions },
      { account: { userId, currency: 'IMP' }, amount: impressions },
    ],
  });
}

const impressionsOf = async (userId: number) => (await ledger().balances(userId)).IMP;

describe('promotion with impressions', () => {
  it('ranks a broadcaster holding impressions first in Popular, and spends them down to zero, never below', async () => {
    const watched = await t.given.liveStream();
    const promoted = await t.given.liveStream();
    // The watched stream has likes, the promoted one none: without impressions it would come first.
    await t.resources.database.db.execute(`update streams set likes = 10 where id = ${watched.streamId}`);
    const before = await popular();
    expect(before.indexOf(watched.streamId)).toBeLessThan(before.indexOf(promoted.streamId));

    await promote(promoted.user.id, 3);
    const meter = createImpressionMeter({ db: t.resources.database.db, ledger: ledger(), log: { warn: () => {} } });
    meter.shown([promoted.user.id], 'user:1');
    meter.shown([promoted.user.id], 'user:2');
    await meter.settle();
    expect(await impressionsOf(promoted.user.id)).toBe(1);
    // Listings are cached for about a second (decision 0026): the new ranking shows within it.
    expect((await eventually(popular, (ids) => ids[0] === promoted.streamId))[0]).toBe(promoted.streamId);

    // More visitors than impressions left: it spends what remains, never below zero.
    for (const visitor of ['user:3', 'user:4', 'user:5']) meter.shown([promoted.user.id], visitor);
    await meter.settle();
    expect(await impressionsOf(promoted.user.id)).toBe(0);
    const after = await eventually(popular, (ids) => ids.indexOf(watched.streamId) < ids.indexOf(promoted.streamId));
    expect(after.indexOf(watched.streamId)).toBeLessThan(after.indexOf(promoted.streamId));
  });

  it('counts a visitor once per window, however often they load Popular', async () => {
    const promoted = await t.given.liveStream();
    await promote(promoted.user.id, 1_000);
    const guest = t.client({ 'x-forwarded-for': '203.0.113.7' });
    for (let i = 0; i < 50; i++) await popular(guest);
    // The same address with another browser is the same visitor.
    await popular(t.client({ 'x-forwarded-for': '203.0.113.7', 'user-agent': 'another-browser' }));
    const fan = await t.given.signedIn(await t.given.user());
    for (let i = 0; i < 5; i++) await popular(fan);
    await t.app.services.promotion.settle();
    expect(await impressionsOf(promoted.user.id)).toBe(1_000 - 2);

    // Other people do count.
    await popular(t.client({ 'x-forwarded-for': '198.51.100.9' }));
    await t.app.services.promotion.settle();
    expect(await impressionsOf(promoted.user.id)).toBe(1_000 - 3);
  });

  it('counts the same visitor again in the next window', async () => {
    const promoted = await t.given.liveStream();
    await promote(promoted.user.id, 10);
    let clock = Date.UTC(2026, 0, 1, 12, 0, 0);
    const meter = createImpressionMeter({ db: t.resources.database.db, ledger: ledger(), log: { warn: () => {} }, now: () => clock });
    meter.shown([promoted.user.id], 'user:7');
    await meter.settle();
    clock += SHOWING_WINDOW_MS / 2;
    meter.shown([promoted.user.id], 'user:7');
    await meter.settle();
    expect(await impressionsOf(promoted.user.id)).toBe(9);
    clock += SHOWING_WINDOW_MS;
    meter.shown([promoted.user.id], 'user:7');
    await meter.settle();
    expect(await impressionsOf(promoted.user.id)).toBe(8);
    // Closed windows are purged; the open one still counts the visitor once.
    await meter.purgeClosedWindows();
    meter.shown([promoted.user.id], 'user:7');
    await meter.settle();
    expect(await impressionsOf(promoted.user.id)).toBe(8);
  });
});

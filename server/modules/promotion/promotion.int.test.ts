/** Get Popular: impressions put a broadcaster's live stream first in Popular and each showing spends one. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import { goLive } from '../../testing/live-stream';
import { createLedger } from '../ledger/service';
import { createImpressionMeter } from './impression-meter';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => closeCheckingLedger(t));

describe('promotion with impressions', () => {
  it('ranks a broadcaster holding impressions first in Popular, and spends one impression per showing', async () => {
    const ledger = createLedger({ db: t.resources.database.db });
    const popular = async () => {
      const channels = (await t.client().get('/api/channel/base-group')).body.channels as Array<{ id: number; name: string }>;
      const id = channels.find((c) => c.name === 'Popular')!.id;
      return ((await t.client().get('/api/channel/list-channel-streams', { id })).body.streams as Array<{ stream_id: number }>).map((s) => s.stream_id);
    };
    const watched = await goLive(t);
    const promoted = await goLive(t);
    // The watched stream has a like, the promoted one none: without impressions it would come second.
    await t.resources.database.db.execute(`update streams set likes = 10 where id = ${watched.streamId}`);
    const before = await popular();
    expect(before.indexOf(watched.streamId)).toBeLessThan(before.indexOf(promoted.streamId));

    await ledger.transfer({
      kind: 'impressions', idempotencyKey: `promo-${promoted.user.id}`, toUserId: promoted.user.id, amount: 3, currency: 'IMP',
      legs: [{ account: { system: 'mint', currency: 'IMP' }, amount: -3 }, { account: { userId: promoted.user.id, currency: 'IMP' }, amount: 3 }],
    });
    const meter = createImpressionMeter({ ledger, log: { warn: () => {} } });
    meter.shown([promoted.user.id, promoted.user.id]);
    await meter.settle();
    expect((await ledger.balances(promoted.user.id)).IMP).toBe(1);

    expect((await popular())[0]).toBe(promoted.streamId);
    // Shown more often than the impressions left: it spends what remains, never below zero.
    meter.shown([promoted.user.id, promoted.user.id, promoted.user.id]);
    await meter.settle();
    expect((await ledger.balances(promoted.user.id)).IMP).toBe(0);
    const after = await popular();
    expect(after.indexOf(watched.streamId)).toBeLessThan(after.indexOf(promoted.streamId));
  });
});

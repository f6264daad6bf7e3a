/** The owner's live view of a stream: the session's earnings, latest tips, supporters and viewers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';
import { closeCheckingLedger } from '../../testing/ledger-invariants';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PLATFORM_FEES: 'tip=20' });
});
afterAll(() => closeCheckingLedger(t));

let keys = 0;
const tip = (client: Awaited<ReturnType<TestApp['given']['signedInUser']>>['client'], streamId: number, amount: number) =>
  client.request('POST', '/api/streams/send-tip', { body: { stream_id: streamId, amount }, headers: { 'idempotency-key': `live-session-${(keys += 1)}` } });

describe('live session', () => {
  it("adds up the stream's tips for its owner: coins tipped and what reached the wallet after fees", async () => {
    const live = await t.given.liveStream();
    const empty = await live.client.get('/api/streams/live-session', { id: live.streamId });
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ earnings: { currency: 'CON', tips: 0, gross: 0, net: 0 }, tips: [], supporters: [] });

    const fan = await t.given.signedInUser();
    const other = await t.given.signedInUser();
    await t.given.coins(fan.user, 500);
    await t.given.coins(other.user, 500);
    expect((await tip(fan.client, live.streamId, 100)).status).toBe(200);
    expect((await tip(other.client, live.streamId, 10)).status).toBe(200);
    expect((await tip(fan.client, live.streamId, 20)).status).toBe(200);

    const res = await live.client.get('/api/streams/live-session', { id: live.streamId });
    expect(res.status).toBe(200);
    // 20 % fee, rounded up per tip: 100 → 80, 10 → 8, 20 → 16.
    expect(res.body.earnings).toEqual({ currency: 'CON', tips: 3, gross: 130, net: 104 });
    const tips = res.body.tips as { user_id: number; amount: number; name: string; time: string }[];
    expect(tips.map((x) => [x.user_id, x.amount])).toEqual([[fan.user.id, 20], [other.user.id, 10], [fan.user.id, 100]]);
    expect(tips[0]!.name).toBeTruthy();
    expect(Number.isNaN(Date.parse(tips[0]!.time))).toBe(false);
    expect((res.body.supporters as { user_id: number; amt: number }[]).map((s) => [s.user_id, s.amt])).toEqual([[fan.user.id, 120], [other.user.id, 10]]);
    expect(res.body).toMatchObject({ viewers: expect.any(Number), tviewers: expect.any(Number) });
  });

  it('is for the owner only', async () => {
    const live = await t.given.liveStream();
    const url = '/api/streams/live-session';
    expect((await t.client().get(url, { id: live.streamId })).status).toBe(401);
    const other = await t.given.signedInUser();
    expect((await other.client.get(url, { id: live.streamId })).status).toBe(404);
    const admin = await t.given.signedInUser({ role: 'admin' });
    expect((await admin.client.get(url, { id: live.streamId })).status).toBe(404);
    expect((await live.client.get(url, { id: 'nope' })).status).toBe(400);
    expect((await live.client.get(url, { id: 999_999 })).status).toBe(404);
  });
});

/** The owner's live view of a stream: the session's earnings, latest tips, supporters and viewers. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveSession, sendTip } from '../../../common/api/tips';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { closeCheckingLedger } from '../../testing/ledger-invariants';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PLATFORM_FEES: 'tip=20' });
});
afterAll(() => closeCheckingLedger(t));

let keys = 0;
const tip = (client: HttpSession, streamId: number, amount: number) =>
  client.call(sendTip, { stream_id: streamId, amount }, { idempotencyKey: `live-session-${(keys += 1)}` });

describe('live session', () => {
  it("adds up the stream's tips for its owner: coins tipped and what reached the wallet after fees", async () => {
    const live = await t.given.liveStream();
    const empty = await live.client.call(liveSession, { id: live.streamId });
    expect(empty).toMatchObject({ earnings: { currency: 'CON', tips: 0, gross: 0, net: 0 }, tips: [], supporters: [] });

    const fan = await t.given.signedInUser();
    const other = await t.given.signedInUser();
    await t.given.coins(fan.user, 500);
    await t.given.coins(other.user, 500);
    await tip(fan.client, live.streamId, 100);
    await tip(other.client, live.streamId, 10);
    await tip(fan.client, live.streamId, 20);

    const res = await live.client.call(liveSession, { id: live.streamId });
    // 20 % fee, rounded up per tip: 100 → 80, 10 → 8, 20 → 16.
    expect(res.earnings).toEqual({ currency: 'CON', tips: 3, gross: 130, net: 104 });
    expect(res.tips.map((x) => [x.user_id, x.amount])).toEqual([[fan.user.id, 20], [other.user.id, 10], [fan.user.id, 100]]);
    expect(res.tips[0]!.name).toBeTruthy();
    expect(Number.isNaN(Date.parse(res.tips[0]!.time))).toBe(false);
    expect(res.supporters.map((s) => [s.user_id, s.amt])).toEqual([[fan.user.id, 120], [other.user.id, 10]]);
    expect(res).toMatchObject({ viewers: expect.any(Number), tviewers: expect.any(Number) });
  });

  it('is for the owner only', async () => {
    const live = await t.given.liveStream();
    const refused = async (client: HttpSession, id: unknown) => (await client.refusal(liveSession, { id })).status;
    expect(await refused(t.client(), live.streamId)).toBe(401);
    const other = await t.given.signedInUser();
    expect(await refused(other.client, live.streamId)).toBe(404);
    const admin = await t.given.signedInUser({ role: 'admin' });
    expect(await refused(admin.client, live.streamId)).toBe(404);
    expect(await refused(live.client, 'nope')).toBe(400);
    expect(await refused(live.client, 999_999)).toBe(404);
  });
});

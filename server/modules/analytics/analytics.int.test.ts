/**
 * Creator analytics: every event against a direct computation from the raw tables (the books, stream
 * views, follows, streams), the fold's atomicity and exclusivity, its lag, and the call's refusals.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYTICS_EVENTS, type AnalyticsResult } from '../../../common/api/analytics';
import { MSG } from '../../../common/messages';
import type { HttpSession } from '../../testing/http-session';
import { startTestApp, type LiveStream, type SignedInUser, type TestApp } from '../../testing/harness';
import { closeCheckingLedger, expectLedgerInvariants } from '../../testing/ledger-invariants';
import { platformFee } from '../ledger';
import { addDays, daysOf, utcDay } from './days';

let t: TestApp;
let creator: LiveStream;
let secondStream: number;
let fans: SignedInUser[];
const LAG_MS = 60_000;
let keys = 0;

const db = () => t.resources.database.db;
const rows = async <T,>(query: ReturnType<typeof sql>) => (await db().execute<T & Record<string, unknown>>(query)).rows;
/** Folds everything stamped before now, as if the lag had passed. */
const foldAll = () => t.app.services.analytics.fold.run(new Date(Date.now() + LAG_MS));

const tip = async (fan: HttpSession, streamId: number, amount: number) => {
  const res = await fan.request('POST', '/api/streams/send-tip', { body: { stream_id: streamId, amount }, headers: { 'idempotency-key': `analytics-${(keys += 1)}` } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.transfer_id as number;
};

/** A tip at a past time, through the ledger (history the fold has not read yet). */
const pastTip = (fan: SignedInUser, streamId: number, amount: number, at: string) =>
  t.given.pastTip({ tipperId: fan.user.id, creatorId: creator.user.id, streamId, amount, at: new Date(at) });

/** Moves a view or a follow back in time, as if it happened then. */
const backdate = {
  view: (streamId: number, userId: number, at: string) => db().execute(sql`update stream_views set first_joined_at = ${at}::timestamptz where stream_id = ${streamId} and user_id = ${userId}`),
  follow: (followerId: number, followeeId: number, at: string) => db().execute(sql`update follows set created_at = ${at}::timestamptz where follower_id = ${followerId} and followee_id = ${followeeId}`),
};

const analytics = (client: HttpSession, query: Record<string, string | number>) => client.get('/api/user/user-analytics', query);
async function answered(query: Record<string, string | number>, client: HttpSession = creator.client) {
  const res = await analytics(client, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as AnalyticsResult;
}

/** What every event must say, computed from the raw tables. */
async function direct(creatorId: number, from: string, to: string) {
  const inRange = (column: string) => sql.raw(`(${column} at time zone 'UTC')::date between '${from}' and '${to}'`);
  const tips = await rows<{ day: string; coins: string }>(sql`select (created_at at time zone 'UTC')::date::text as day, sum(amount)::text as coins
    from ledger_transfers where kind = 'tip' and currency = 'CON' and to_user_id = ${creatorId} and ${inRange('created_at')} group by 1`);
  const views = await rows<{ day: string; n: string }>(sql`select (v.first_joined_at at time zone 'UTC')::date::text as day, count(*)::text as n
    from stream_views v join streams s on s.id = v.stream_id where s.user_id = ${creatorId} and ${inRange('v.first_joined_at')} group by 1`);
  const follows = await rows<{ day: string; n: string }>(sql`select (created_at at time zone 'UTC')::date::text as day, count(*)::text as n
    from follows where followee_id = ${creatorId} and ${inRange('created_at')} group by 1`);
  // Likes as the streams show them: saved likes and likes given in realtime.
  const [likes] = await rows<{ n: string }>(sql`select coalesce(sum(s.likes + (select count(*) from chat_messages m where m.stream_id = s.id and m.type = 'LIKE')), 0)::text as n
    from streams s where s.user_id = ${creatorId} and s.deleted_at is null and ${inRange('s.started_at')}`);
  const tippers = await rows<{ tipper: string; coins: string }>(sql`select from_user_id::text as tipper, sum(amount)::text as coins from ledger_transfers
    where kind = 'tip' and currency = 'CON' and to_user_id = ${creatorId} and ${inRange('created_at')} group by from_user_id order by sum(amount) desc, from_user_id`);
  const streamTips = await rows<{ stream: string; coins: string }>(sql`select stream_id::text as stream, sum(amount)::text as coins from ledger_transfers
    where kind = 'tip' and currency = 'CON' and to_user_id = ${creatorId} and ${inRange('created_at')} group by stream_id`);
  const streamViews = await rows<{ stream: string; n: string }>(sql`select v.stream_id::text as stream, count(*)::text as n from stream_views v join streams s on s.id = v.stream_id
    where s.user_id = ${creatorId} and ${inRange('v.first_joined_at')} group by v.stream_id`);
  // The series run from the creator's first fact up to today, within the range.
  const [first] = await rows<{ day: string | null }>(sql`select (least(
      (select min(created_at) from ledger_transfers where kind = 'tip' and currency = 'CON' and to_user_id = ${creatorId}),
      (select min(v.first_joined_at) from stream_views v join streams s on s.id = v.stream_id where s.user_id = ${creatorId}),
      (select min(created_at) from follows where followee_id = ${creatorId})) at time zone 'UTC')::date::text as day`);
  const seriesFrom = first?.day && first.day > from ? first.day : from;
  const seriesTo = to < today() ? to : today();
  const seriesDays = first?.day && seriesFrom <= seriesTo ? daysOf(seriesFrom, seriesTo) : [];
  const perDay = (list: Array<{ day: string } & Record<string, unknown>>, field: string) => new Map(list.map((row) => [row.day, Number(row[field])]));
  const [tipDays, viewDays, followDays] = [perDay(tips, 'coins'), perDay(views, 'n'), perDay(follows, 'n')];
  const streamIds = [...new Set([...streamTips.map((r) => r.stream), ...streamViews.map((r) => r.stream)])].map(Number);
  const coinsOf = (id: number) => Number(streamTips.find((r) => Number(r.stream) === id)?.coins ?? 0);
  const viewsOf = (id: number) => Number(streamViews.find((r) => Number(r.stream) === id)?.n ?? 0);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    TOTAL_TIP_COUNT: sum(tipDays),
    TOTAL_STREAM_VIEW_COUNT: sum(viewDays),
    TOTAL_STREAM_LIKE_COUNT: Number(likes?.n ?? 0),
    TOTAL_FOLLOWERS_COUNT: sum(followDays),
    TOTAL_TIP_BY_DATE: seriesDays.map((date) => ({ date, totalTip: tipDays.get(date) ?? 0 })),
    TOTAL_STREAM_VIEWS_BY_DATE: seriesDays.map((date) => ({ date, totalStreamViews: viewDays.get(date) ?? 0 })),
    TOTAL_FOLLOWERS_BY_DATE: seriesDays.map((date) => ({ date, totalFollowers: followDays.get(date) ?? 0 })),
    topTippers: tippers.map((r) => ({ user_id: Number(r.tipper), tip_coin: Number(r.coins) })),
    topByTip: streamIds.filter((id) => coinsOf(id) > 0).map((id) => ({ stream_id: id, tip_coin: coinsOf(id) }))
      .sort((a, b) => b.tip_coin - a.tip_coin || viewsOf(b.stream_id) - viewsOf(a.stream_id) || b.stream_id - a.stream_id),
    topByView: streamIds.filter((id) => viewsOf(id) > 0).map((id) => ({ stream_id: id, range_views: viewsOf(id) }))
      .sort((a, b) => b.range_views - a.range_views || coinsOf(b.stream_id) - coinsOf(a.stream_id) || b.stream_id - a.stream_id),
  };
}

async function expectEveryEvent(from: string, to: string) {
  const result = await answered({ event: ANALYTICS_EVENTS.join(','), from, to, limit: 50 });
  const expected = await direct(creator.user.id, from, to);
  for (const event of ['TOTAL_TIP_COUNT', 'TOTAL_STREAM_VIEW_COUNT', 'TOTAL_STREAM_LIKE_COUNT', 'TOTAL_FOLLOWERS_COUNT', 'TOTAL_TIP_BY_DATE', 'TOTAL_STREAM_VIEWS_BY_DATE', 'TOTAL_FOLLOWERS_BY_DATE'] as const) {
    expect(result[event], `${event} ${from}..${to}`).toEqual(expected[event]);
  }
  expect(result.TOP_TIPPERS!.list.map((r) => ({ user_id: r.user_id, tip_coin: r.tip_coin })), `TOP_TIPPERS ${from}..${to}`).toEqual(expected.topTippers);
  expect(result.TOP_TIPPERS!.total).toBe(expected.topTippers.length);
  expect(result.TOP_STREAMS_BY_TIP!.list.map((r) => ({ stream_id: r.stream_id, tip_coin: r.tip_coin })), `TOP_STREAMS_BY_TIP ${from}..${to}`).toEqual(expected.topByTip);
  expect(result.TOP_STREAM_BY_VIEW!.list.map((r) => ({ stream_id: r.stream_id, range_views: r.range_views })), `TOP_STREAM_BY_VIEW ${from}..${to}`).toEqual(expected.topByView);
  return result;
}

const today = () => utcDay(new Date());
/** `n` days and `minutes` before an hour ago (so never in the future). */
const daysAgo = (n: number, minutes = 0) => new Date(Date.now() - n * 86_400_000 - 3_600_000 - minutes * 60_000).toISOString();

beforeAll(async () => {
  t = await startTestApp({ ANALYTICS_FOLD_LAG_SECONDS: String(LAG_MS / 1000) });
  creator = await t.given.liveStream({ title: 'Analytics show' });
  fans = [];
  for (let i = 0; i < 4; i++) {
    const fan = await t.given.signedInUser();
    await t.given.coins(fan.user, 5_000);
    fans.push(fan);
  }
  // History over fourteen months: each fan joins, tips and follows on days spread across months and years.
  const plan = [
    { fan: 0, amounts: [5, 20], ago: [400, 3] },
    { fan: 1, amounts: [100], ago: [95] },
    { fan: 2, amounts: [10, 10, 200], ago: [45, 31, 0] },
    { fan: 3, amounts: [20], ago: [0] },
  ];
  // Five likes given in realtime on the first stream (LIKE lines, as the chat stores them), none saved yet.
  for (const fan of [0, 1, 2, 3, 3]) await db().execute(sql`insert into chat_messages (stream_id, user_id, type) values (${creator.streamId}, ${fans[fan]!.user.id}, 'LIKE')`);
  for (const { fan, amounts, ago } of plan) {
    const client = fans[fan]!.client;
    expect((await client.post('/api/streams/stream-join', { stream_id: creator.streamId })).status).toBe(200);
    await backdate.view(creator.streamId, fans[fan]!.user.id, daysAgo(ago[0]!, 8));
    for (const [i, amount] of amounts.entries()) await pastTip(fans[fan]!, creator.streamId, amount, daysAgo(ago[i]!, 10 + i));
    await t.given.follower(creator.user, fans[fan]);
    await backdate.follow(fans[fan]!.user.id, creator.user.id, daysAgo(ago[0]!, 9));
  }
  // A second stream of the same creator, with a later tip: the stream lists rank two streams.
  await creator.client.post('/api/streams/end-stream', { id: creator.streamId });
  const next = await t.given.liveStream({ title: 'Second show' }, creator.user);
  secondStream = next.streamId;
  await fans[1]!.client.post('/api/streams/stream-join', { stream_id: secondStream });
  await pastTip(fans[1]!, secondStream, 500, daysAgo(2));
  // Someone else's stream, tipped by the same fans: never counted for the creator.
  const other = await t.given.liveStream({ title: 'Another creator' });
  await tip(fans[0]!.client, other.streamId, 7);
});
afterAll(() => closeCheckingLedger(t));

describe('user-analytics', () => {
  it('answers every event as the raw tables say, for ranges within a month, across months and of all time', async () => {
    expect(await foldAll()).toBeGreaterThan(0);
    await expectEveryEvent(addDays(today(), -6), today());
    await expectEveryEvent(addDays(today(), -29), today());
    await expectEveryEvent(addDays(today(), -89), today());
    await expectEveryEvent(addDays(today(), -364), today());
    await expectEveryEvent('2016-01-01', today());
    await expectEveryEvent(addDays(today(), -120), addDays(today(), -40)); // whole months in the middle, edge days around them
    const all = await expectEveryEvent('2016-01-01', '2031-12-31');
    expect(all.TOTAL_TIP_COUNT).toBe(5 + 20 + 100 + 10 + 10 + 200 + 20 + 500);
    // The stream shows 5 likes; so do its analytics and its broadcaster's profile.
    const shown = (await t.client().get('/api/streams/stream-lookup', { id: creator.streamId })).body.stream as { likes: number; rlikes: number };
    expect(shown.likes + shown.rlikes).toBe(5);
    expect(all.TOTAL_STREAM_LIKE_COUNT).toBe(5);
    expect(((await t.client().get('/api/user/user-lookup', { id: creator.user.id })).body.user as { likes: number }).likes).toBe(5);
    expect(all.TOP_TIPPERS!.list[0]).toMatchObject({ user_id: fans[1]!.user.id, sname: fans[1]!.user.username, tip_coin: 600 });
    expect(all.TOP_STREAMS_BY_TIP!.list[0]).toMatchObject({ stream_id: secondStream, title: expect.stringContaining('Second show'), tip_coin: 500 });
    // Every day from the first fact (400 days ago) to today, none after.
    expect(all.TOTAL_TIP_BY_DATE).toHaveLength(daysOf(utcDay(new Date(Date.now() - 400 * 86_400_000 - 3_600_000 - 10 * 60_000)), today()).length);
    expect(all.TOTAL_TIP_BY_DATE!.at(-1)!.date).toBe(today());
  });

  it('counts as earnings what the books credited the creator in the range: one of each kind of earning, no deposit', async () => {
    const earner = await t.given.signedInUser();
    const payer = await t.given.signedInUser();
    await t.given.coins(payer.user, 10_000);
    const ledger = t.app.services.ledger;
    const wallet = (userId: number) => ({ userId, currency: 'CON' as const });
    const fees = { system: 'fees' as const, currency: 'CON' as const };
    const kinds = ['tip', 'post_purchase', 'subscription', 'meeting_fee', 'toy_tip', 'ad_commission', 'referral_commission'] as const;
    for (const [i, kind] of kinds.entries()) {
      const amount = 100 + i * 10;
      const fee = platformFee(amount, 20);
      await ledger.transfer({
        kind, idempotencyKey: `analytics-earning-${kind}-${earner.user.id}`, fromUserId: payer.user.id, toUserId: earner.user.id, amount, currency: 'CON',
        legs: [{ account: wallet(payer.user.id), amount: -amount }, { account: wallet(earner.user.id), amount: amount - fee }, { account: fees, amount: fee }],
      });
    }
    // Bought coins are no earning.
    await t.given.coins(earner.user, 1_000);
    const [credited] = await rows<{ n: string }>(sql`select coalesce(sum(e.amount), 0)::text as n from ledger_entries e
      join ledger_accounts a on a.id = e.account_id join ledger_transfers t on t.id = e.transfer_id
      where a.user_id = ${earner.user.id} and a.currency = 'CON' and e.amount > 0 and t.kind <> 'deposit' and t.kind <> 'grant'`);
    const expected = kinds.reduce((sum, _kind, i) => sum + (100 + i * 10) - platformFee(100 + i * 10, 20), 0);
    expect(Number(credited!.n)).toBe(expected);
    const result = await answered({ event: 'TOTAL_EARNINGS,TOTAL_TIP_COUNT', from: today(), to: today() }, earner.client);
    expect(result.TOTAL_EARNINGS).toBe(expected);
    expect((await answered({ event: 'TOTAL_EARNINGS', from: addDays(today(), -30), to: addDays(today(), -1) }, earner.client)).TOTAL_EARNINGS).toBe(0);
    await expectLedgerInvariants(db());
  });

  it('pages the top lists, five by default', async () => {
    const first = await answered({ event: 'TOP_TIPPERS', from: '2016-01-01', to: today(), limit: 2 });
    const second = await answered({ event: 'TOP_TIPPERS', from: '2016-01-01', to: today(), limit: 2, offset: 2 });
    expect(first.TOP_TIPPERS!.total).toBe(4);
    expect([...first.TOP_TIPPERS!.list, ...second.TOP_TIPPERS!.list].map((r) => r.user_id)).toHaveLength(4);
    const byDefault = await answered({ event: 'TOP_TIPPERS', from: '2016-01-01', to: today() });
    expect(byDefault.TOP_TIPPERS!.list.length).toBeLessThanOrEqual(5);
    const empty = await answered({ event: 'TOP_TIPPERS,TOP_STREAM_BY_VIEW', from: '2017-01-01', to: '2017-01-31' });
    expect(empty).toEqual({ TOP_TIPPERS: { list: [], total: 0 }, TOP_STREAM_BY_VIEW: { list: [], total: 0 } });
  });

  it('folds a fact only once its lag has passed, and each fact once', async () => {
    const before = (await answered({ event: 'TOTAL_TIP_COUNT', from: today(), to: today() })).TOTAL_TIP_COUNT!;
    await tip(fans[3]!.client, secondStream, 5);
    await t.app.services.analytics.fold.run(new Date()); // the tip is younger than the lag
    expect((await answered({ event: 'TOTAL_TIP_COUNT', from: today(), to: today() })).TOTAL_TIP_COUNT).toBe(before);
    await foldAll();
    await foldAll();
    expect((await answered({ event: 'TOTAL_TIP_COUNT', from: today(), to: today() })).TOTAL_TIP_COUNT).toBe(before + 5);
    const res = await analytics(creator.client, { event: 'TOTAL_TIP_COUNT', from: today(), to: today() });
    expect(Date.parse(res.body.folded_until as string)).toBeGreaterThan(Date.now() - 10_000);
  });

  it('after a fold that failed midway, equals a recomputation from nothing', async () => {
    await tip(fans[2]!.client, secondStream, 10);
    await tip(fans[0]!.client, secondStream, 20);
    // The fold dies after writing the days and before the tippers' rows: its transaction must leave nothing.
    await db().execute(sql.raw(`create function analytics_fail() returns trigger language plpgsql as $$ begin raise exception 'killed mid-fold'; end $$;
      create trigger analytics_fail before insert on analytics_tipper_months for each statement execute function analytics_fail();`));
    await expect(foldAll()).rejects.toThrow(/killed mid-fold|Failed query/);
    await db().execute(sql.raw('drop trigger analytics_fail on analytics_tipper_months; drop function analytics_fail();'));
    await foldAll();
    const folded = await answered({ event: ANALYTICS_EVENTS.join(','), from: '2016-01-01', to: today(), limit: 50 });
    await expectEveryEvent('2016-01-01', today());
    // From nothing: the rollups emptied and folded again from the first fact.
    await db().execute(sql.raw('truncate analytics_days, analytics_tipper_days, analytics_tipper_months, analytics_tipper_totals, analytics_stream_days; update analytics_fold set folded_until = null'));
    await foldAll();
    expect(await answered({ event: ANALYTICS_EVENTS.join(','), from: '2016-01-01', to: today(), limit: 50 })).toEqual(folded);
  });

  it('runs one fold at a time: two at once add each fact once', async () => {
    await tip(fans[1]!.client, secondStream, 5);
    await tip(fans[2]!.client, secondStream, 5);
    const now = new Date(Date.now() + LAG_MS);
    await Promise.all([t.app.services.analytics.fold.run(now), t.app.services.analytics.fold.run(now), t.app.services.analytics.fold.run(now)]);
    await expectEveryEvent('2016-01-01', today());
  });

  it("answers the caller's own figures; another creator's only to an administrator", async () => {
    const stranger = await t.given.signedInUser();
    const refused = await analytics(stranger.client, { event: 'TOTAL_TIP_COUNT', from: today(), to: today(), user_id: creator.user.id });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MSG.analyticsOthersRefused);
    const own = await answered({ event: 'TOTAL_TIP_COUNT,TOP_TIPPERS', from: '2016-01-01', to: today() }, stranger.client);
    expect(own).toEqual({ TOTAL_TIP_COUNT: 0, TOP_TIPPERS: { list: [], total: 0 } });
    const admin = await t.given.signedInUser({ role: 'admin' });
    const seen = await analytics(admin.client, { event: 'TOTAL_TIP_COUNT', from: '2016-01-01', to: today(), user_id: creator.user.id });
    expect(seen.status).toBe(200);
    expect((seen.body.result as Record<string, number>).TOTAL_TIP_COUNT).toBeGreaterThan(0);
    expect((await analytics(t.client(), { event: 'TOTAL_TIP_COUNT', from: today(), to: today() })).status).toBe(401);
  });

  it('refuses a bad range or event with a clear message', async () => {
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ event: 'TOTAL_TIP_COUNT', from: '2026-02-30', to: '2026-03-01' }, MSG.analyticsDay],
      [{ event: 'TOTAL_TIP_COUNT', from: '2015-12-31', to: '2016-01-02' }, 'Must be a day from 2016-01-01 to 2031-12-31'],
      [{ event: 'TOTAL_TIP_COUNT', from: '2026-03-02', to: '2026-03-01' }, MSG.analyticsRangeOrder],
      [{ event: 'TIPS', from: '2026-03-01', to: '2026-03-01' }, 'Must be one of'],
      [{ event: '', from: '2026-03-01', to: '2026-03-01' }, MSG.analyticsEventsRequired],
      [{ event: 'TOP_TIPPERS', from: '2026-03-01', to: '2026-03-01', limit: 500 }, 'Must be a whole number from 1 to 50'],
    ];
    for (const [query, message] of cases) {
      const res = await analytics(creator.client, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(String(res.body.message), JSON.stringify(query)).toContain(message);
    }
  });
});

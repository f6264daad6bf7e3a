/**
 * Private and group shows billed by the minute (decision 0085), through HTTP, the realtime channels, the
 * playback addresses and the ledger. A minute is a second here (SHOW_MINUTE_MS); the app's own billing job
 * bills it. Every test ends with the ledger's conservation check (the app's close).
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as chatApi from '../../../common/api/chat';
import * as api from '../../../common/api/shows';
import { fill, MSG } from '../../../common/messages';
import { streamChannelOf, userChannelOf } from '../../../common/realtime';
import type { HttpSession } from '../../testing/http-session';
import { segmentPath } from '../../testing/hls';
import { useListeningTestApp } from '../../testing/listening-app';
import { showSeats, shows } from './tables';

const MINUTE_MS = 1000;
const served = useListeningTestApp(undefined, () => ({ SHOW_MINUTE_MS: String(MINUTE_MS) }));
const { socketOf } = served;

const db = () => served.t.resources.database.db;
const services = () => served.t.app.services;
const con = async (userId: number) => (await services().ledger.balances(userId)).CON;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The platform's fees account, every shard. */
const fees = async () => Number((await db().execute(sql`select coalesce(sum(balance), 0) as total from ledger_accounts where system = 'fees' and currency = 'CON'`)).rows[0]!.total);
/** Coins the show's minutes moved: what viewers paid in `show_minute` transfers on the stream. */
const minutesPaid = async (streamId: number) =>
  Number((await db().execute(sql`select coalesce(sum(amount), 0) as total from ledger_transfers where kind = 'show_minute' and stream_id = ${streamId}`)).rows[0]!.total);

async function fan(coins: number) {
  const signedIn = await served.t.given.signedInUser();
  if (coins > 0) await served.t.given.coins(signedIn.user, coins);
  return signedIn;
}

async function broadcaster(offer: Partial<api.ShowOfferInput> = {}) {
  const live = await served.t.given.liveStream();
  await live.client.call(api.saveShowOffer, { private_price: 50, group_price: 20, group_min_tickets: 2, spy_price: 10, min_minutes: 0, ...offer });
  return live;
}

/** Joins the stream and fetches its playlist: the playlist's address, to fetch again. */
async function playlistOf(streamId: number, client: HttpSession) {
  await served.t.resources.files.put(`media/${streamId}/b1/index.m3u8`, '#EXTM3U\n#EXTINF:1.0,\nseg_00000.ts\n');
  await served.t.resources.files.put(`media/${streamId}/b1/seg_00000.ts`, Buffer.alloc(188, 0x47));
  const join = await client.post('/api/streams/stream-join', { stream_id: streamId });
  expect(join.status, JSON.stringify(join.body)).toBe(200);
  const playlist = (join.body.url as { hls: string }).hls;
  const listed = await client.request('GET', playlist);
  return { playlist, segment: listed.status === 200 ? segmentPath(playlist, listed.body, 'seg_00000.') : undefined };
}
const fetchStatus = async (client: HttpSession, url: string) => (await client.request('GET', url)).status;

/** The viewer's seat on the stream as their page reads it. */
const seatOf = async (client: HttpSession, streamId: number) => (await client.call(api.streamShow, { id: streamId })).seat;

/** Accepts the stream's first waiting request. */
async function acceptFirst(live: { client: HttpSession; streamId: number }) {
  const { requests } = await live.client.call(api.showRequests, { id: live.streamId });
  return live.client.call(api.answerShowRequest, { stream_id: live.streamId, show_id: requests[0]!.show_id, accept: true });
}

describe('show offers', () => {
  it('are the broadcaster’s to set and anyone’s to read; spying shows only where the skin has it', async () => {
    const live = await broadcaster({ private_price: 60, spy_price: 20, min_minutes: 5 });
    const offer = (await served.t.client().call(api.getShowOffer, { user_id: live.user.id })).offer;
    expect(offer).toEqual({ private_price: 60, group_price: 20, group_min_tickets: 2, spy_price: 0, min_minutes: 5 });
    const inAfterDark = await served.t.client().request('GET', `/api/streams/show-offer?user_id=${live.user.id}`, { headers: { 'x-service': 'afterdark' } });
    expect((inAfterDark.body as { offer: api.ShowOffer }).offer.spy_price).toBe(20);
  });

  it('refuses a spy price not below the private one, tickets out of range and a minimum past the longest', async () => {
    const { client } = await fan(0);
    const base = { private_price: 50, group_price: 20, group_min_tickets: 2, spy_price: 10, min_minutes: 0 };
    const spy = await client.refusal(api.saveShowOffer, { ...base, spy_price: 50 });
    expect(spy.status).toBe(400);
    expect(spy.body.message).toBe(MSG.spyCostsLess);
    expect((await client.refusal(api.saveShowOffer, { ...base, group_min_tickets: 1 })).status).toBe(400);
    expect((await client.refusal(api.saveShowOffer, { ...base, min_minutes: 61 })).status).toBe(400);
    expect((await client.refusal(api.saveShowOffer, { ...base, private_price: 1.5 })).status).toBe(400);
  });
});

describe('a private show', () => {
  it('is asked for, accepted, billed each minute through the ledger and ended by the balance running out; only its buyer plays meanwhile', async () => {
    const live = await broadcaster();
    const buyer = await fan(120); // the first minute, a second, and 20 coins short of a third
    const other = await fan(0);
    const feesBefore = await fees();
    const ownerBefore = await con(live.user.id);
    const watching = await socketOf(other.client);
    await watching.request({ op: 'subscribe', channel: streamChannelOf(live.streamId) });
    const buyerSocket = await socketOf(buyer.client);
    await buyerSocket.request({ op: 'subscribe', channel: userChannelOf(buyer.user.id) });
    const outsider = await playlistOf(live.streamId, other.client);
    expect(await fetchStatus(other.client, outsider.playlist)).toBe(200);

    const asked = await buyer.client.call(api.joinShow, { stream_id: live.streamId, as: 'private' });
    expect(asked.seat).toMatchObject({ kind: 'private', role: 'buyer', state: 'waiting', minutes_billed: 0 });
    expect(await con(buyer.user.id)).toBe(120); // asking costs nothing
    const panel = await live.client.call(api.showRequests, { id: live.streamId });
    expect(panel.requests).toEqual([expect.objectContaining({ user_id: buyer.user.id })]);

    const accepted = await live.client.call(api.answerShowRequest, { stream_id: live.streamId, show_id: panel.requests[0]!.show_id, accept: true });
    expect(accepted.show).toMatchObject({ kind: 'private', state: 'live', price_per_minute: 50 });
    expect(await con(buyer.user.id)).toBe(70);
    expect((await watching.message('SHOW')).message).toMatchObject({ data: { stream_id: live.streamId, show: { kind: 'private', state: 'live' } } });
    await buyerSocket.next((f) => f.op === 'message' && JSON.stringify(f.message).includes('"state":"active"'));

    // The stream is the buyer's now: another viewer's address is refused at its next fetch; the buyer's plays.
    expect(await fetchStatus(other.client, outsider.playlist)).toBe(403);
    const buyers = await playlistOf(live.streamId, buyer.client);
    expect(await fetchStatus(buyer.client, buyers.playlist)).toBe(200);

    // The second minute is paid at its start; the third cannot be: the show ends there.
    await buyer.client.call(api.showHere, { stream_id: live.streamId });
    await expect.poll(() => seatOf(buyer.client, live.streamId), { timeout: 10_000 }).toMatchObject({ state: 'ended' });
    expect(await seatOf(buyer.client, live.streamId)).toMatchObject({ end_reason: 'balance', minutes_billed: 2, coins_paid: 100 });
    expect(await con(buyer.user.id)).toBe(20); // a minute it cannot pay is neither charged nor shown
    expect((await served.t.client().call(api.streamShow, { id: live.streamId })).show).toBeNull();
    expect(await fetchStatus(other.client, outsider.playlist)).toBe(200);

    // Conserved: the buyer's 100 coins are the broadcaster's 80 and the platform's 20, and nothing else moved.
    expect(await minutesPaid(live.streamId)).toBe(100);
    expect((await con(live.user.id)) - ownerBefore).toBe(80);
    expect((await fees()) - feesBefore).toBe(20);
  });

  it('bills a minute once however many runs meet on it at once', async () => {
    const live = await broadcaster();
    const buyer = await fan(500);
    await buyer.client.call(api.joinShow, { stream_id: live.streamId, as: 'private' });
    await acceptFirst(live);
    await sleep(MINUTE_MS + 50);
    // The seat as it stood when due, run three times at once, as three instances' jobs reading it together would (the app's own job runs too).
    const [due] = await db().select({ seat: showSeats, show: shows }).from(showSeats).innerJoin(shows, eq(shows.id, showSeats.showId))
      .where(eq(showSeats.userId, buyer.user.id));
    const stale = { ...due!, seat: { ...due!.seat, minutesBilled: 1 } };
    const runs = await Promise.all([1, 2, 3].map(() => services().shows.billSeat(stale)));
    expect(runs.filter((r) => r === 'paid').length).toBeLessThanOrEqual(1);
    const keyed = await db().execute(sql`select count(*)::int as n from ledger_transfers where idempotency_key = ${`show:${due!.show.id}:${buyer.user.id}:1`}`);
    expect(keyed.rows[0]!.n).toBe(1);
    await buyer.client.call(api.leaveShow, { stream_id: live.streamId });
    const seat = (await seatOf(buyer.client, live.streamId))!;
    expect(seat.coins_paid).toBe(50 * seat.minutes_billed);
    expect(await con(buyer.user.id)).toBe(500 - seat.coins_paid);
    expect(await minutesPaid(live.streamId)).toBe(seat.coins_paid);
  });

  it('charges nothing once its viewer leaves or is no longer heard from', async () => {
    const live = await broadcaster();
    const leaving = await fan(200);
    await leaving.client.call(api.joinShow, { stream_id: live.streamId, as: 'private' });
    await acceptFirst(live);
    const left = await leaving.client.call(api.leaveShow, { stream_id: live.streamId });
    expect(left.seat).toMatchObject({ state: 'ended', end_reason: 'left', minutes_billed: 1 });
    await sleep(MINUTE_MS + 300);
    expect(await con(leaving.user.id)).toBe(150);

    const gone = await fan(200);
    await gone.client.call(api.joinShow, { stream_id: live.streamId, as: 'private' });
    await acceptFirst(live);
    // Its page stopped saying it is there (closed, or the network went) a while ago.
    await db().update(showSeats).set({ seenAt: new Date(Date.now() - 60_000) }).where(eq(showSeats.userId, gone.user.id));
    await expect.poll(() => seatOf(gone.client, live.streamId), { timeout: 10_000 }).toMatchObject({ state: 'ended', end_reason: 'gone' });
    expect(await con(gone.user.id)).toBe(150);
  });

  it('is refused to a wallet short of its minimum, and a declined or unanswered request costs nothing', async () => {
    const live = await broadcaster({ min_minutes: 3 });
    const poor = await fan(100);
    const short = await poor.client.refusal(api.joinShow, { stream_id: live.streamId, as: 'private' });
    expect(short.status).toBe(402);
    expect(short.body.message).toBe(fill(MSG.showCoinsToStart, { coins: 150, minutes: 3 }));

    const declined = await fan(150);
    await declined.client.call(api.joinShow, { stream_id: live.streamId, as: 'private' });
    const { requests } = await live.client.call(api.showRequests, { id: live.streamId });
    expect((await live.client.call(api.answerShowRequest, { stream_id: live.streamId, show_id: requests[0]!.show_id, accept: false })).show).toBeNull();
    expect((await declined.client.call(api.streamShow, { id: live.streamId })).seat).toMatchObject({ state: 'ended', end_reason: 'declined' });
    const again = await live.client.refusal(api.answerShowRequest, { stream_id: live.streamId, show_id: requests[0]!.show_id, accept: true });
    expect(again.status).toBe(409);
    expect(await con(declined.user.id)).toBe(150);
  });

  it('keeps the broadcaster to the minimum they promised, and ends with the broadcast', async () => {
    const live = await broadcaster({ min_minutes: 2 });
    const buyer = await fan(1000);
    await buyer.client.call(api.joinShow, { stream_id: live.streamId, as: 'private' });
    await acceptFirst(live);
    const early = await live.client.refusal(api.endShow, { stream_id: live.streamId });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe(fill(MSG.showMinimumPromised, { minutes: 2, left: 2 }));

    await services().broadcastCallbacks.onEnded({ streamId: live.streamId, broadcastId: 'b1', playlistKey: `media/${live.streamId}/b1/index.m3u8`, lengthSeconds: 60 });
    const ended = await seatOf(buyer.client, live.streamId);
    expect(ended).toMatchObject({ state: 'ended', end_reason: 'show-ended' });
    await sleep(MINUTE_MS + 300);
    expect(await con(buyer.user.id)).toBe(1000 - ended!.coins_paid);
  });

  it('refuses its own broadcaster as a viewer, a visitor, and another user at the owner’s calls', async () => {
    const live = await broadcaster();
    expect((await live.client.refusal(api.joinShow, { stream_id: live.streamId, as: 'private' })).status).toBe(403);
    expect((await served.t.client().refusal(api.joinShow, { stream_id: live.streamId, as: 'private' })).status).toBe(401);
    const stranger = await fan(0);
    expect((await stranger.client.refusal(api.showRequests, { id: live.streamId })).status).toBe(404);
    expect((await stranger.client.refusal(api.openGroupShow, { stream_id: live.streamId })).status).toBe(404);
    expect((await stranger.client.refusal(api.endShow, { stream_id: live.streamId })).status).toBe(404);
  });
});

describe('a show’s minutes', () => {
  it('leave every playlist once the show ended: gaps while the broadcast goes on, cut from its replay', async () => {
    const live = await broadcaster();
    const buyer = await fan(500);
    const other = await fan(0);
    await buyer.client.call(api.joinShow, { stream_id: live.streamId, as: 'private' });
    await acceptFirst(live);
    await buyer.client.call(api.leaveShow, { stream_id: live.streamId });
    const [show] = await db().select().from(shows).where(eq(shows.streamId, live.streamId));
    const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');
    const start = show!.startedAt!.getTime();
    const segment = (n: number, at: number) => `#EXTINF:1.000000,\n#EXT-X-PROGRAM-DATE-TIME:${iso(at)}\nseg_0000${n}.ts`;
    const recorded = ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-TARGETDURATION:1', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:EVENT',
      segment(0, start - 10_000), segment(1, start + 100), segment(2, show!.endedAt!.getTime() + 5_000), ''].join('\n');
    const join = await other.client.post('/api/streams/stream-join', { stream_id: live.streamId });
    const playlist = (join.body.url as { hls: string }).hls;
    const listed = async (text: string) => {
      await served.t.resources.files.put(`media/${live.streamId}/b1/index.m3u8`, text);
      const answer = await other.client.request('GET', playlist);
      expect(answer.status).toBe(200);
      return String(answer.body);
    };
    const onAir = await listed(recorded);
    expect(onAir).toContain('#EXT-X-GAP\nseg_00001.ts');
    expect(onAir).toMatch(/seg_00000\.[A-Za-z0-9_-]+\.ts/);
    expect(onAir).toMatch(/seg_00002\.[A-Za-z0-9_-]+\.ts/);
    // The gap's segment has no sealed name to fetch it by.
    expect((await other.client.request('GET', playlist.replace('index.m3u8', 'seg_00001.ts'))).status).toBe(404);
    const replay = await listed(`${recorded}#EXT-X-ENDLIST\n`);
    expect(replay).not.toContain('seg_00001');
    expect(replay).toContain('#EXT-X-DISCONTINUITY');
  });
  it('leave the replay’s chat too: what was said meanwhile is not played back, what came after moves up', async () => {
    const live = await broadcaster();
    const buyer = await fan(500);
    const chatter = await socketOf(live.client);
    const channel = streamChannelOf(live.streamId);
    await chatter.request({ op: 'subscribe', channel });
    const say = async (text: string) => expect(await chatter.request({ op: 'send', channel, type: 'COMMENT', text, id: text })).toEqual({ op: 'ack', id: text });
    await say('before the show');
    await sleep(1_200);
    await buyer.client.call(api.joinShow, { stream_id: live.streamId, as: 'private' });
    await acceptFirst(live);
    await say('during the show');
    await buyer.client.call(api.leaveShow, { stream_id: live.streamId });
    await sleep(2_300);
    await say('after the show');
    await services().broadcastCallbacks.onEnded({ streamId: live.streamId, broadcastId: 'b1', playlistKey: `media/${live.streamId}/b1/index.m3u8`, lengthSeconds: 10 });

    const replay = await served.t.client().call(chatApi.replayChat, { id: live.streamId });
    expect(replay.lines.map((line) => (line.message as { text: string }).text)).toEqual(['before the show', 'after the show']);
    const [show] = await db().select().from(shows).where(eq(shows.streamId, live.streamId));
    const cut = show!.endedAt!.getTime() - show!.startedAt!.getTime() + 3_000;
    const said = Date.parse((replay.lines[1]!.message as { chatTime: string }).chatTime) - Date.parse(replay.started_time!);
    expect(replay.lines[1]!.offset_ms).toBe(said - cut);
  });
});

describe('a group show', () => {
  it('starts when its tickets reach the number, bills every ticket, and ends with its last viewer', async () => {
    const live = await broadcaster({ group_price: 20, group_min_tickets: 2 });
    const first = await fan(100);
    const second = await fan(100);
    const refused = await first.client.refusal(api.joinShow, { stream_id: live.streamId, as: 'group' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(MSG.groupShowNotOnSale);

    const opened = await live.client.call(api.openGroupShow, { stream_id: live.streamId });
    expect(opened.show).toMatchObject({ kind: 'group', state: 'gathering', tickets: 0, min_tickets: 2 });
    expect((await first.client.call(api.joinShow, { stream_id: live.streamId, as: 'group' })).seat).toMatchObject({ role: 'ticket', state: 'waiting' });
    expect(await con(first.user.id)).toBe(100);
    expect((await second.client.call(api.joinShow, { stream_id: live.streamId, as: 'group' })).seat).toMatchObject({ state: 'active', minutes_billed: 1 });
    expect(await con(first.user.id)).toBe(80);
    expect(await con(second.user.id)).toBe(80);
    expect((await served.t.client().call(api.streamShow, { id: live.streamId })).show).toMatchObject({ state: 'live', tickets: 2 });

    await first.client.call(api.leaveShow, { stream_id: live.streamId });
    await expect.poll(() => con(second.user.id), { timeout: 10_000 }).toBeLessThanOrEqual(60); // the show goes on for the other ticket
    await second.client.call(api.leaveShow, { stream_id: live.streamId });
    expect((await served.t.client().call(api.streamShow, { id: live.streamId })).show).toBeNull();
    const paid = (100 - (await con(first.user.id))) + (100 - (await con(second.user.id)));
    expect(await minutesPaid(live.streamId)).toBe(paid);
    expect(await con(first.user.id)).toBe(80);
  });
});

describe('spying', () => {
  it('watches a private show at the lower price where the stream’s skin allows it, and not elsewhere', async () => {
    const live = await broadcaster({ private_price: 50, spy_price: 10 });
    const buyer = await fan(500);
    const spy = await fan(100);
    await buyer.client.call(api.joinShow, { stream_id: live.streamId, as: 'private' });
    await acceptFirst(live);
    const elsewhere = await spy.client.refusal(api.joinShow, { stream_id: live.streamId, as: 'spy' });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.message).toBe(MSG.spyOff);

    await db().execute(sql`update streams set skin = 'afterdark' where id = ${live.streamId}`);
    const seat = (await spy.client.call(api.joinShow, { stream_id: live.streamId, as: 'spy' })).seat;
    expect(seat).toMatchObject({ role: 'spy', state: 'active', price_per_minute: 10, minutes_billed: 1 });
    expect(await con(spy.user.id)).toBeLessThanOrEqual(90);
    const spying = await playlistOf(live.streamId, spy.client);
    expect(await fetchStatus(spy.client, spying.playlist)).toBe(200);

    // The buyer leaving ends the show, and the spy's seat with it.
    await buyer.client.call(api.leaveShow, { stream_id: live.streamId });
    expect((await spy.client.call(api.streamShow, { id: live.streamId })).seat).toMatchObject({ state: 'ended', end_reason: 'show-ended' });
  });
});

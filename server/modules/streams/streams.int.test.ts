import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_TAG, TITLE_MIN } from '../../../common/api/streams';
import { fill, MSG } from '../../../common/messages';
import { startTestApp, type TestApp, type TestUser } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

interface OwnStream {
  stream_id: number;
  rtmp_url: string;
  broadcast_key: string;
  hidden: boolean;
  ready: boolean;
  live: string;
}

async function broadcaster(): Promise<{ user: TestUser; client: HttpSession; stream: OwnStream }> {
  const user = await t.given.user();
  const client = await t.given.signedIn(user);
  const res = await client.post('/api/streams/get-live-stream', {});
  expect(res.status).toBe(200);
  return { user, client, stream: res.body.stream as OwnStream };
}

/** Sets up, goes live, and plays the ingest's part: the encoder published, segments exist. */
async function liveStream(data: Record<string, unknown> = {}) {
  const live = await t.given.liveStream(data);
  return { ...live, stream: live.stream as unknown as OwnStream };
}

async function endStream(streamId: number, seconds = 42) {
  await t.app.services.broadcastCallbacks.onEnded({ streamId, broadcastId: 'b1', playlistKey: `media/${streamId}/b1/index.m3u8`, lengthSeconds: seconds });
}

describe('the broadcaster’s stream', () => {
  it('is created hidden on first use, with the RTMP address and key for the owner only', async () => {
    const { user, client, stream } = await broadcaster();
    expect(stream).toMatchObject({ hidden: true, ready: false, live: 'N' });
    expect(stream.rtmp_url).toMatch(/^rtmp:\/\/.+\/live$/);
    expect(stream.broadcast_key).toMatch(/^live_/);
    const again = await client.post('/api/streams/get-live-stream', {});
    expect((again.body.stream as OwnStream).stream_id).toBe(stream.stream_id);

    const other = await t.given.signedIn(await t.given.user());
    expect((await other.get('/api/streams/stream-lookup', { id: stream.stream_id })).status).toBe(404);
    const lookup = await client.get('/api/streams/stream-lookup', { id: stream.stream_id });
    expect(lookup.body.stream).toMatchObject({ user_id: user.id, is_owner: true });
    expect(JSON.stringify(lookup.body)).not.toContain(stream.broadcast_key);
  });

  it('is one stream even when asked for twice at once', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const [a, b] = await Promise.all([client.post('/api/streams/get-live-stream', {}), client.post('/api/streams/get-live-stream', {})]);
    expect((a.body.stream as OwnStream).stream_id).toBe((b.body.stream as OwnStream).stream_id);
  });

  it('refuses users who may not go live, and guests', async () => {
    const viewer = await t.given.signedIn(await t.given.user({ perms: ['CREATE STREAM_CHAT'] }));
    const res = await viewer.post('/api/streams/get-live-stream', {});
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.cannotGoLive);
    expect((await t.client().post('/api/streams/get-live-stream', {})).status).toBe(401);
  });

  it('checks the setup with the spec messages and appends the live tag', async () => {
    const { client, stream } = await broadcaster();
    const empty = await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: ' ' } });
    expect(empty.body).toMatchObject({ response: 'validation', message: MSG.titleRequired });
    const short = await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'a' } });
    expect(short.body.message).toBe(fill(MSG.titleTooShort, { min: TITLE_MIN }));
    const audience = await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { audience: 'EVERYONE' } });
    expect(audience.status).toBe(400);

    const saved = await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Cooking night', audience: 'PUBLIC', rating: 'G', chat_enabled: false } });
    expect(saved.body.stream).toMatchObject({ title: `Cooking night ${LIVE_TAG}`, ready: true, hidden: true, chat_enabled: false });
    const tagged = await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: `Already ${LIVE_TAG} here` } });
    expect((tagged.body.stream as { title: string }).title).toBe(`Already ${LIVE_TAG} here`);
  });

  it('refuses a rating the broadcaster lacks the permission for, and 18+ outside the adult skin', async () => {
    const { client, stream } = await broadcaster();
    const fourteen = await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { rating: 'PLUS_14' } });
    expect(fourteen.status).toBe(403);
    expect(fourteen.body.message).toBe(MSG.ratingNotAllowed);
    const adultUser = await t.given.user({ perms: ['ALLOW CUSTOM_STREAM_CLIENT', 'CREATE STREAM_LIVE_G', 'CREATE STREAM_LIVE_PLUS18'] });
    const adult = await t.given.signedIn(adultUser);
    const own = ((await adult.post('/api/streams/get-live-stream', {})).body.stream as OwnStream).stream_id;
    expect((await adult.post('/api/streams/update-stream-info', { id: own, data: { rating: 'PLUS_18' } })).status).toBe(403);
    const inAdultSkin = await adult.request('POST', '/api/streams/update-stream-info', { body: { id: own, data: { rating: 'PLUS_18' } }, headers: { 'x-service': 'afterdark' } });
    expect(inAdultSkin.status).toBe(200);
  });

  it("refuses to change another broadcaster's stream", async () => {
    const { stream } = await broadcaster();
    const other = await t.given.signedIn(await t.given.user());
    expect((await other.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Mine now' } })).status).toBe(404);
    expect((await other.post('/api/streams/go-live', { id: stream.stream_id })).status).toBe(404);
    expect((await other.post('/api/streams/delete', { id: stream.stream_id })).status).toBe(404);
  });

  it('goes live only after the setup is saved', async () => {
    const { client, stream } = await broadcaster();
    const early = await client.post('/api/streams/go-live', { id: stream.stream_id });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe(MSG.updateBroadcastInfoFirst);
    await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Ready now' } });
    const shown = await client.post('/api/streams/go-live', { id: stream.stream_id });
    expect(shown.body.stream).toMatchObject({ hidden: false, ready: true });
  });
});

describe('publishing', () => {
  it('regenerates the stream key: the new one publishes at once, the old one no longer', async () => {
    const callbacks = t.app.services.broadcastCallbacks;
    const { client, stream } = await broadcaster();
    const res = await client.post('/api/streams/regenerate-key', {});
    const fresh = res.body.broadcast_key as string;
    expect(fresh).toMatch(/^live_/);
    expect(fresh).not.toBe(stream.broadcast_key);
    expect(callbacks.canPublish(fresh)).toBe(true);
    expect(await callbacks.startBroadcast(fresh)).toEqual({ streamId: stream.stream_id });
    await expect(callbacks.startBroadcast(stream.broadcast_key)).rejects.toThrow();
    // Refused once, the old key is refused from memory for a while: retries cost no lookups.
    expect(callbacks.canPublish(stream.broadcast_key)).toBe(false);
    expect(((await client.post('/api/streams/get-live-stream', {})).body.stream as OwnStream).broadcast_key).toBe(fresh);
    expect((await t.client().post('/api/streams/regenerate-key', {})).status).toBe(401);
  });

  it('accepts only keys of broadcasters who may go live', async () => {
    const callbacks = t.app.services.broadcastCallbacks;
    const { stream } = await broadcaster();
    expect(callbacks.canPublish(stream.broadcast_key)).toBe(true);
    expect(callbacks.canPublish('live_not-a-key')).toBe(false);
    const unknown = `live_${'x'.repeat(24)}`;
    expect(callbacks.canPublish(unknown)).toBe(true);
    await expect(callbacks.startBroadcast(unknown)).rejects.toThrow();
    expect(callbacks.canPublish(unknown)).toBe(false);
    // A real key of someone who may not go live: refused at the lookup.
    const viewer = await t.given.user({ perms: [] });
    const rows = await t.resources.database.db.execute(sql`select broadcast_key from users where id = ${viewer.id}`);
    const viewerKey = (rows.rows[0] as { broadcast_key: string }).broadcast_key;
    expect(callbacks.canPublish(viewerKey)).toBe(true);
    await expect(callbacks.startBroadcast(viewerKey)).rejects.toThrow();
  });

  it('goes LIVE, then REPLAY after the end; the next stream starts from the same setup, hidden', async () => {
    const { client, stream } = await liveStream({ title: 'Night run' });
    const viewer = t.client();
    const lookup = await viewer.get('/api/streams/stream-lookup', { id: stream.stream_id });
    expect(lookup.body.stream).toMatchObject({ live: 'Y', ended: false, playable: true, width: 1280, height: 720 });
    expect((lookup.body.stream as { started_time: string }).started_time).toBeTruthy();

    await endStream(stream.stream_id, 37);
    const replay = await viewer.get('/api/streams/stream-lookup', { id: stream.stream_id });
    expect(replay.body.stream).toMatchObject({ live: 'N', ended: true, playable: true, stream_length: 37 });

    const next = (await client.post('/api/streams/get-live-stream', {})).body.stream as OwnStream & { title: string };
    expect(next.stream_id).not.toBe(stream.stream_id);
    expect(next).toMatchObject({ hidden: true, ready: true, title: `Night run ${LIVE_TAG}` });
  });
});

describe('after a crash', () => {
  const lookup = async (streamId: number) =>
    (await t.client().get('/api/streams/stream-lookup', { id: streamId })).body.stream as { live: string; ended: boolean; stream_length: number };
  const expireLease = (streamId: number) => t.resources.database.db.execute(sql`update broadcast_leases set expires_at = now() - interval '1 second' where stream_id = ${streamId}`);

  it('ends a broadcast whose lease ran out, once, and leaves one still renewed alone', async () => {
    const dead = await liveStream();
    const alive = await liveStream();
    await expireLease(dead.stream.stream_id);
    const callbacks = t.app.services.broadcastCallbacks;
    const closed: string[] = [];
    expect(await callbacks.endExpiredBroadcasts(async (key) => (closed.push(key), 12.2))).toBe(1);
    expect(closed).toEqual([`media/${dead.stream.stream_id}/b1/index.m3u8`]);
    expect(await lookup(dead.stream.stream_id)).toMatchObject({ live: 'N', ended: true, stream_length: 13 });
    expect(await lookup(alive.stream.stream_id)).toMatchObject({ live: 'Y', ended: false });
    expect(await callbacks.endExpiredBroadcasts(async () => null)).toBe(0);
  });

  it('continues a broadcast whose encoder comes back while its lease lives: same stream, no new hidden one', async () => {
    const { stream } = await liveStream();
    const callbacks = t.app.services.broadcastCallbacks;
    await callbacks.releaseLeases([stream.stream_id], 60_000);
    expect(await callbacks.isLeased(stream.stream_id)).toBe(true);
    expect(await callbacks.startBroadcast(stream.broadcast_key)).toEqual({ streamId: stream.stream_id, continues: 'b1' });
    expect(await lookup(stream.stream_id)).toMatchObject({ live: 'Y', ended: false });
  });

  it('does not end a broadcast another instance holds when this one lets go of it', async () => {
    const { stream } = await liveStream();
    await t.resources.database.db.execute(sql`update broadcast_leases set instance_id = 'another-instance' where stream_id = ${stream.stream_id}`);
    const callbacks = t.app.services.broadcastCallbacks;
    await callbacks.onEnded({ streamId: stream.stream_id, broadcastId: 'b1', playlistKey: `media/${stream.stream_id}/b1/index.m3u8`, lengthSeconds: 3 });
    expect(await lookup(stream.stream_id)).toMatchObject({ live: 'Y', ended: false });
    expect(await callbacks.renewLeases([stream.stream_id])).toEqual(new Set());
  });
});

describe('watching', () => {
  it('joins a live stream with a signed HLS address and counts the view once (watching now is realtime presence)', async () => {
    const { stream } = await liveStream();
    const viewer = await t.given.signedIn(await t.given.user());
    const join = await viewer.post('/api/streams/stream-join', { stream_id: stream.stream_id, isHls: true });
    expect(join.status).toBe(200);
    const url = join.body.url as { hls: string; width: number; height: number };
    expect(url.hls).toMatch(new RegExp(`^/media/hls/${stream.stream_id}/[\\w.-]+/index\\.m3u8$`));
    expect(url).toMatchObject({ width: 1280, height: 720 });
    await viewer.post('/api/streams/stream-join', { stream_id: stream.stream_id });
    await t.client().post('/api/streams/stream-join', { stream_id: stream.stream_id });
    const info = (await viewer.get('/api/streams/stream-lookup', { id: stream.stream_id })).body.stream as { tviewers: number; viewers: number };
    expect(info).toMatchObject({ tviewers: 2, viewers: 0 });

    await viewer.post('/api/streams/leave-stream', { id: stream.stream_id, likes: 3 });
    for (let i = 0; i < 3; i++) await viewer.post('/api/streams/leave-stream', { id: stream.stream_id, likes: 100 });
    const after = (await viewer.get('/api/streams/stream-lookup', { id: stream.stream_id })).body.stream as Record<string, number>;
    expect(after).toMatchObject({ tviewers: 2, likes: 3, stream_viewer_likes: 3 });
  });

  it('adds to the stream’s likes only what the viewer’s saved likes grew by, up to the limit', async () => {
    const { stream } = await liveStream();
    const viewer = await t.given.signedIn(await t.given.user());
    for (let i = 0; i < 5; i++) {
      await viewer.post('/api/streams/stream-join', { stream_id: stream.stream_id });
      await viewer.post('/api/streams/leave-stream', { id: stream.stream_id, likes: 1_000 });
    }
    const after = (await viewer.get('/api/streams/stream-lookup', { id: stream.stream_id })).body.stream as Record<string, number>;
    expect(after.stream_viewer_likes).toBeGreaterThan(0);
    expect(after.likes).toBe(after.stream_viewer_likes);
  });

  it('counts no likes from guests, and one view per address whatever User-Agent they change to', async () => {
    const { stream } = await liveStream();
    for (let round = 0; round < 5; round++) {
      const guest = t.client({ 'user-agent': `probe-${round}` });
      expect((await guest.post('/api/streams/stream-join', { stream_id: stream.stream_id })).status).toBe(200);
      expect((await guest.post('/api/streams/leave-stream', { id: stream.stream_id, likes: 100 })).status).toBe(200);
    }
    const after = (await t.client().get('/api/streams/stream-lookup', { id: stream.stream_id })).body.stream as Record<string, number>;
    expect(after).toMatchObject({ likes: 0, tviewers: 1 });
  });

  it('answers "not available" for hidden, deleted or unplayable streams', async () => {
    const { stream } = await broadcaster();
    const hidden = await t.client().post('/api/streams/stream-join', { stream_id: stream.stream_id });
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(MSG.streamNotAvailable);
    const { client, stream: gone } = await liveStream();
    await client.post('/api/streams/delete', { id: gone.stream_id });
    expect((await t.client().post('/api/streams/stream-join', { stream_id: gone.stream_id })).status).toBe(404);
    expect((await t.client().post('/api/streams/stream-join', { stream_id: 987654321 })).status).toBe(404);
  });

  it('keeps followers-only, subscribers-only and private streams to their audience', async () => {
    const followersOnly = await liveStream({ audience: 'FOLLOWERS' });
    const guest = await t.client().post('/api/streams/stream-join', { stream_id: followersOnly.stream.stream_id });
    expect(guest.status).toBe(403);
    expect(guest.body.message).toBe(MSG.streamFollowersOnly);
    const { client: fan } = await t.given.follower(followersOnly.user);
    expect((await fan.post('/api/streams/stream-join', { stream_id: followersOnly.stream.stream_id })).status).toBe(200);

    const privateOne = await liveStream({ audience: 'PRIVATE' });
    const refused = await fan.post('/api/streams/stream-join', { stream_id: privateOne.stream.stream_id });
    expect(refused.body.message).toBe(MSG.streamPrivate);
    expect((await privateOne.client.post('/api/streams/stream-join', { stream_id: privateOne.stream.stream_id })).status).toBe(200);
    const editor = await t.given.signedIn(await t.given.user({ perms: ['UPDATE STREAM_ANY'] }));
    expect((await editor.post('/api/streams/stream-join', { stream_id: privateOne.stream.stream_id })).status).toBe(403);
    const moderator = await t.given.signedIn(await t.given.user({ perms: ['GRANT PERMISSION'] }));
    expect((await moderator.post('/api/streams/stream-join', { stream_id: privateOne.stream.stream_id })).status).toBe(200);

    const subscribers = await liveStream({ audience: 'SUBSCRIBERS' });
    expect((await fan.post('/api/streams/stream-join', { stream_id: subscribers.stream.stream_id })).body.message).toBe(MSG.streamSubscribersOnly);
  });

  it('answers "block" to a banned viewer', async () => {
    const { stream } = await liveStream();
    const banned = await t.given.user();
    await t.resources.database.db.execute(
      (await import('drizzle-orm')).sql`insert into stream_bans (stream_id, user_id) values (${stream.stream_id}, ${banned.id})`,
    );
    const res = await (await t.given.signedIn(banned)).post('/api/streams/stream-join', { stream_id: stream.stream_id });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ response: 'block', message: MSG.streamBlocked });
  });
});

describe('playback addresses', () => {
  /** Stream-join as this client; then a playlist on disk, so a fetch the gate lets through answers 200. */
  async function joinAndPlaylist(streamId: number, client: HttpSession) {
    const join = await client.post('/api/streams/stream-join', { stream_id: streamId });
    expect(join.status).toBe(200);
    await t.resources.files.put(`media/${streamId}/b1/index.m3u8`, '#EXTM3U\n#EXTINF:1.0,\nseg_00000.ts\n');
    return (join.body.url as { hls: string }).hls;
  }

  it('are made for one viewer in one browser: another viewer, a guest or a copy in another browser cannot play them', async () => {
    const { stream } = await liveStream();
    const [alice, bob] = [await t.given.signedIn(await t.given.user()), await t.given.signedIn(await t.given.user())];
    const [aliceUrl, bobUrl] = [await joinAndPlaylist(stream.stream_id, alice), await joinAndPlaylist(stream.stream_id, bob)];
    expect(aliceUrl).not.toBe(bobUrl);
    expect((await alice.request('GET', aliceUrl)).status).toBe(200);
    expect((await bob.request('GET', aliceUrl)).status).toBe(403);
    expect((await t.client().request('GET', aliceUrl)).status).toBe(403);
    const guest = t.client({ 'user-agent': 'guest-browser' });
    const guestUrl = await joinAndPlaylist(stream.stream_id, guest);
    expect((await guest.request('GET', guestUrl)).status).toBe(200);
    // The same address and User-Agent without the guest's cookie is another browser.
    expect((await t.client({ 'user-agent': 'guest-browser' }).request('GET', guestUrl)).status).toBe(403);
    expect((await t.client({ 'user-agent': 'another-browser' }).request('GET', guestUrl)).status).toBe(403);
  });

  it('stop playing at the next playlist fetch after a ban or a price the viewer has not paid', async () => {
    const live = await liveStream();
    const streamId = live.stream.stream_id;
    const [banned, free] = [await t.given.signedIn(await t.given.user()), await t.given.signedIn(await t.given.user())];
    const bannedUrl = await joinAndPlaylist(streamId, banned);
    const freeUrl = await joinAndPlaylist(streamId, free);
    expect((await banned.request('GET', bannedUrl)).status).toBe(200);
    expect((await free.request('GET', freeUrl)).status).toBe(200);

    const bannedId = ((await banned.get('/api/user/session-detail')).body.user as { user_id: number }).user_id;
    expect((await live.client.post('/api/streams/ban-viewer', { stream_id: streamId, user_id: bannedId })).status).toBe(200);
    expect((await banned.request('GET', bannedUrl)).status).toBe(403);
    expect((await free.request('GET', freeUrl)).status).toBe(200);

    expect((await live.client.post('/api/streams/update-stream-info', { id: streamId, data: { tip_viewer_min_amount: 50 } })).status).toBe(200);
    expect((await free.request('GET', freeUrl)).status).toBe(403);
  });
});

describe('thumbnails', () => {
  it('shows the thumbnail of a free public stream, never of a hidden, private, followers-only or paid one', async () => {
    const shown = await liveStream();
    const privateOne = await liveStream({ audience: 'PRIVATE' });
    const followersOnly = await liveStream({ audience: 'FOLLOWERS' });
    const paid = await liveStream({ tip_viewer_min_amount: 50 });
    const hidden = await broadcaster();
    const callbacks = t.app.services.broadcastCallbacks;
    const ids = [shown, privateOne, followersOnly, paid, hidden].map((s) => s.stream.stream_id);
    for (const id of ids) {
      await t.resources.files.put(`media/${id}/thumb.jpg`, Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
      await callbacks.onThumbnail({ streamId: id, thumbnailKey: `media/${id}/thumb.jpg` });
    }
    expect((await t.client().request('GET', `/media/thumbs/${shown.stream.stream_id}.jpg`)).status).toBe(200);
    expect((await t.client().request('GET', `/media/thumbs/${privateOne.stream.stream_id}.jpg`)).status).toBe(404);
    expect((await t.client().request('GET', `/media/thumbs/${hidden.stream.stream_id}.jpg`)).status).toBe(404);
    for (const closed of [followersOnly, paid]) {
      expect((await t.client().request('GET', `/media/thumbs/${closed.stream.stream_id}.jpg`)).status).toBe(404);
      const info = (await closed.client.get('/api/streams/stream-lookup', { id: closed.stream.stream_id })).body.stream as { thumbnail_url: string | null };
      expect(info.thumbnail_url).toBeNull();
    }
    const open = (await t.client().get('/api/streams/stream-lookup', { id: shown.stream.stream_id })).body.stream as { thumbnail_url: string | null };
    expect(open.thumbnail_url).toMatch(/^\/media\/thumbs\//);
    await shown.client.post('/api/streams/delete', { id: shown.stream.stream_id });
    expect((await t.client().request('GET', `/media/thumbs/${shown.stream.stream_id}.jpg`)).status).toBe(404);
  });
});

describe('listings', () => {
  it('lists set-up, shown streams live first, by channel, search and user', async () => {
    const live = await liveStream({ title: 'Zebra crossing live' });
    const replay = await liveStream({ title: 'Zebra replay' });
    await endStream(replay.stream.stream_id);
    const hidden = await broadcaster();
    await hidden.client.post('/api/streams/update-stream-info', { id: hidden.stream.stream_id, data: { title: 'Zebra hidden' } });

    const all = await t.client().get('/api/channel/list-streams');
    const ids = (all.body.streams as Array<{ stream_id: number }>).map((s) => s.stream_id);
    expect(ids).toContain(live.stream.stream_id);
    expect(ids).toContain(replay.stream.stream_id);
    expect(ids).not.toContain(hidden.stream.stream_id);
    expect(ids.indexOf(live.stream.stream_id)).toBeLessThan(ids.indexOf(replay.stream.stream_id));

    const search = await t.client().get('/api/channel/search-stream', { search: 'zebra' });
    const found = search.body.streams as Array<{ stream_id: number; live: string; tip_viewer_min_amount: number }>;
    expect(found.map((s) => s.stream_id)).toEqual([live.stream.stream_id, replay.stream.stream_id]);
    expect(found[0]).toMatchObject({ live: 'Y', tip_viewer_min_amount: 0 });
    expect((await t.client().get('/api/channel/search-stream', { search: live.user.username })).body.total).toBe(1);

    const channels = (await t.client().get('/api/channel/base-group')).body.channels as Array<{ id: number; name: string }>;
    const liveChannel = channels.find((c) => c.name === 'Live')!;
    const liveOnly = await t.client().get('/api/channel/list-channel-streams', { id: liveChannel.id });
    const liveIds = (liveOnly.body.streams as Array<{ stream_id: number }>).map((s) => s.stream_id);
    expect(liveIds).toContain(live.stream.stream_id);
    expect(liveIds).not.toContain(replay.stream.stream_id);
    expect((await t.client().get('/api/channel/list-channel-streams', { id: 99999 })).status).toBe(404);

    const mine = await hidden.client.get('/api/streams/user-streams', { id: hidden.user.id });
    expect(mine.body.total).toBe(1);
    expect((await t.client().get('/api/streams/user-streams', { id: hidden.user.id })).body.total).toBe(0);
  });

  it('lists a followed broadcaster in Following, and moved broadcasters in Women and Men', async () => {
    const { user, stream } = await liveStream({ title: 'Followed live' });
    const fan = await t.given.signedIn(await t.given.user());
    const channels = (await fan.get('/api/channel/base-group')).body.channels as Array<{ id: number; name: string }>;
    const byName = (name: string) => channels.find((c) => c.name === name)!.id;
    const following = () => fan.get('/api/channel/list-channel-streams', { id: byName('Following') });
    expect((await following()).body.total).toBe(0);
    await fan.post('/api/user/toggle-following', { id: user.id, isFollowing: true });
    expect(((await following()).body.streams as Array<{ stream_id: number }>).map((s) => s.stream_id)).toEqual([stream.stream_id]);

    const moderator = await t.given.signedIn(await t.given.user({ perms: ['UPDATE STREAM_ANY'] }));
    await moderator.post('/api/streams/report-stream-action', { stream_ids: [stream.stream_id], event: 'MOVE_USER_TO_WOMEN' });
    const women = await fan.get('/api/channel/list-channel-streams', { id: byName('Women') });
    expect((women.body.streams as Array<{ stream_id: number }>).map((s) => s.stream_id)).toContain(stream.stream_id);
  });
});

describe('moderation', () => {
  it('needs UPDATE STREAM_ANY for stream edits and GRANT PERMISSION for end, delete and suspend', async () => {
    const { user, stream } = await liveStream();
    const editor = await t.given.signedIn(await t.given.user({ perms: ['UPDATE STREAM_ANY'] }));
    const plain = await t.given.signedIn(await t.given.user());
    expect((await plain.post('/api/streams/report-stream-action', { stream_ids: [stream.stream_id], event: 'MAKE_FEATURED' })).status).toBe(403);
    const featured = await editor.post('/api/streams/report-stream-action', { stream_ids: [stream.stream_id], event: 'MAKE_FEATURED' });
    expect(featured.body).toMatchObject({ affected: 1 });
    await editor.post('/api/streams/report-stream-action', { stream_ids: [stream.stream_id], event: 'MAKE_FOLLOWERS_ONLY' });
    expect((await t.client().get('/api/streams/stream-lookup', { id: stream.stream_id })).status).toBe(403);
    expect((await editor.post('/api/streams/report-stream-action', { stream_ids: [stream.stream_id], event: 'SUSPEND_USER' })).status).toBe(403);
    const owner = await t.given.signedIn(user);
    const reopened = await owner.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { audience: 'PUBLIC' } });
    expect(reopened.status).toBe(403);
    expect(reopened.body.message).toBe(MSG.setByModerator);
    expect((await owner.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Still mine to name' } })).status).toBe(200);

    const granter = await t.given.signedIn(await t.given.user({ perms: ['GRANT PERMISSION'] }));
    const suspended = await granter.post('/api/streams/report-stream-action', { stream_ids: [stream.stream_id], event: 'SUSPEND_USER', user_comment: 'spam' });
    expect(suspended.body).toMatchObject({ affected: 1 });
    // The right password is told the account is suspended, and no session is opened.
    const login = await t.client().post('/api/user/user-login', { username: user.username, password: user.password });
    expect(login.status).toBe(403);
    expect(JSON.stringify(login.body)).toContain('suspended');
    const bad = await granter.post('/api/streams/report-stream-action', { stream_ids: [stream.stream_id], event: 'EXPLODE' });
    expect(bad.status).toBe(400);
  });

  it('does not suspend an administrator, and hides every stream of a suspended user', async () => {
    const granter = await t.given.signedIn(await t.given.user({ perms: ['GRANT PERMISSION'] }));
    const adminUser = await t.given.user({ role: 'admin' });
    const adminClient = await t.given.signedIn(adminUser);
    const adminStream = ((await adminClient.post('/api/streams/get-live-stream', {})).body.stream as OwnStream).stream_id;
    const refused = await granter.post('/api/streams/report-stream-action', { stream_ids: [adminStream], event: 'SUSPEND_USER' });
    expect(refused.status).toBe(403);

    const first = await liveStream({ title: 'Earlier show' });
    await endStream(first.stream.stream_id);
    const second = (await first.client.post('/api/streams/get-live-stream', {})).body.stream as OwnStream;
    await first.client.post('/api/streams/go-live', { id: second.stream_id });
    await t.app.services.broadcastCallbacks.onLive({ streamId: second.stream_id, broadcastId: 'b2', playlistKey: `media/${second.stream_id}/b2/index.m3u8`, width: 640, height: 360 });
    await granter.post('/api/streams/report-stream-action', { stream_ids: [second.stream_id], event: 'SUSPEND_USER' });
    const listed = await t.client().get('/api/streams/user-streams', { id: first.user.id });
    expect(listed.body.total).toBe(0);
  });

  it("lists a profile's 18+ streams only when asked (?adult=true, isAdult) and in the skin that shows them", async () => {
    const owner = await t.given.user({ perms: ['ALLOW CUSTOM_STREAM_CLIENT', 'CREATE STREAM_LIVE_G', 'CREATE STREAM_LIVE_PLUS18'] });
    const { streamId } = await t.given.liveStream({}, owner);
    const ownerClient = await t.given.signedIn(owner);
    const afterdark = { 'x-service': 'afterdark' };
    expect((await ownerClient.request('POST', '/api/streams/update-stream-info', { body: { id: streamId, data: { rating: 'PLUS_18' } }, headers: afterdark })).status).toBe(200);
    const visitor = t.client();
    const listed = async (adult: string, headers: Record<string, string> = {}) =>
      ((await visitor.request('GET', `/api/streams/user-streams?id=${owner.id}${adult}`, { headers })).body.streams as Array<{ stream_id: number }>).map((s) => s.stream_id);
    expect(await listed('', afterdark)).toEqual([]);
    expect(await listed('&isAdult=true')).toEqual([]);
    expect(await listed('&isAdult=true', afterdark)).toEqual([streamId]);
    expect((await visitor.get('/api/streams/user-streams', { id: owner.id, isAdult: 'maybe' })).status).toBe(400);
  });

  it('lets an owner or a GRANT PERMISSION moderator delete, nobody else', async () => {
    const { stream } = await liveStream();
    const granter = await t.given.signedIn(await t.given.user({ perms: ['GRANT PERMISSION'] }));
    expect((await granter.post('/api/streams/delete', { id: stream.stream_id })).status).toBe(200);
    expect((await t.client().get('/api/streams/stream-lookup', { id: stream.stream_id })).status).toBe(404);
  });
});

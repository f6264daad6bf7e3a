import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import type { LiveStream } from '../../testing/harness';
import { useListeningTestApp } from '../../testing/listening-app';
import type { HttpSession } from '../../testing/http-session';
import { streamReports } from './tables';

const served = useListeningTestApp((t) => t.close());
const { socketOf } = served;

async function viewer() {
  const user = await served.t.given.user();
  return { user, client: await served.t.given.signedIn(user) };
}


/** send-rating is a GET that changes state: like a POST it carries the CSRF header. */
async function rate(client: HttpSession, query: Record<string, number>, withCsrf = true) {
  const headers: Record<string, string> = withCsrf ? { 'x-csrf-token': await client.csrf() } : {};
  return client.request('GET', `/api/streams/send-rating?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`, { headers });
}

/** The broadcaster's next stream, live: the previous one ends with a replay. */
async function nextStream(live: LiveStream): Promise<number> {
  await served.t.app.services.broadcastCallbacks.onEnded({ streamId: live.streamId, broadcastId: 'b1', playlistKey: `media/${live.streamId}/b1/index.m3u8`, lengthSeconds: 30 });
  const next = ((await live.client.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number }).stream_id;
  await live.client.post('/api/streams/go-live', { id: next });
  await served.t.app.services.broadcastCallbacks.onLive({ streamId: next, broadcastId: 'b2', playlistKey: `media/${next}/b2/index.m3u8`, width: 640, height: 360 });
  return next;
}

const lookup = async (client: HttpSession, id: number) => (await client.get('/api/streams/stream-lookup', { id })).body.stream as Record<string, unknown>;

describe('rating a stream', () => {
  it('refuses guests, another user’s id, the owner, a missing CSRF header and ratings outside 1–5', async () => {
    const live = await served.t.given.liveStream();
    const { user, client } = await viewer();
    const other = await viewer();

    const guest = await rate(served.t.client(), { id: user.id, stream_id: live.streamId, rating: 4 });
    expect(guest.status).toBe(401);
    expect(guest.body.message).toBe(MSG.notLoggedIn);
    expect((await rate(client, { id: user.id, stream_id: live.streamId, rating: 4 }, false)).body).toMatchObject({ response: 'csrf' });
    const forged = await rate(client, { id: other.user.id, stream_id: live.streamId, rating: 1 });
    expect(forged.status).toBe(403);
    const own = await rate(live.client, { id: live.user.id, stream_id: live.streamId, rating: 5 });
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(MSG.cannotRateOwnStream);
    expect((await rate(client, { id: user.id, stream_id: live.streamId, rating: 6 })).status).toBe(400);
    expect((await rate(client, { id: user.id, stream_id: live.streamId, rating: 0 })).status).toBe(400);
    expect(await lookup(client, live.streamId)).toMatchObject({ has_rated: false, viewer_rating: 0 });
  });

  it('refuses a stream the viewer may not watch', async () => {
    const live = await served.t.given.liveStream({ audience: 'FOLLOWERS' });
    const { user, client } = await viewer();
    const res = await rate(client, { id: user.id, stream_id: live.streamId, rating: 3 });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.streamFollowersOnly);
    expect((await rate(client, { id: user.id, stream_id: 987654321, rating: 3 })).status).toBe(404);
  });

  it('replaces an earlier rating and answers the broadcaster’s average over all their streams', async () => {
    const live = await served.t.given.liveStream();
    const a = await viewer();
    const b = await viewer();
    expect((await rate(a.client, { id: a.user.id, stream_id: live.streamId, rating: 5 })).body).toEqual({ response: 'success', rating: 5, overall_rating: 5 });
    expect((await rate(b.client, { id: b.user.id, stream_id: live.streamId, rating: 2 })).body).toMatchObject({ rating: 2, overall_rating: 3.5 });
    expect((await rate(a.client, { id: a.user.id, stream_id: live.streamId, rating: 4 })).body).toMatchObject({ rating: 4, overall_rating: 3 });
    expect(await lookup(a.client, live.streamId)).toMatchObject({ has_rated: true, viewer_rating: 4 });

    const second = await nextStream(live);
    expect((await rate(a.client, { id: a.user.id, stream_id: second, rating: 1 })).body).toMatchObject({ rating: 1, overall_rating: 2.3 });
    expect(await lookup(a.client, second)).toMatchObject({ has_rated: true, viewer_rating: 1 });
  });

  it('shows on the profile and in user search, with the likes of the broadcaster’s streams', async () => {
    const live = await served.t.given.liveStream();
    const fan = await viewer();
    const before = (await served.t.client().get('/api/user/user-lookup', { id: live.user.id })).body.user;
    expect(before).toMatchObject({ likes: 0, overall_rating: 0 });

    await rate(fan.client, { id: fan.user.id, stream_id: live.streamId, rating: 4 });
    await fan.client.post('/api/streams/stream-join', { stream_id: live.streamId });
    await fan.client.post('/api/streams/leave-stream', { id: live.streamId, likes: 2 });

    const profile = (await served.t.client().get('/api/user/user-lookup', { id: live.user.id })).body.user;
    expect(profile).toMatchObject({ likes: 2, overall_rating: 4 });
    const found = (await fan.client.get('/api/channel/search-user', { search: live.user.username })).body.users as Array<Record<string, unknown>>;
    expect(found.find((u) => u.user_id === live.user.id)).toMatchObject({ likes: 2, overall_rating: 4 });
    expect(found.find((u) => u.user_id === fan.user.id) ?? { likes: 0, overall_rating: 0 }).toMatchObject({ likes: 0, overall_rating: 0 });
  });
});

describe('saving a stream', () => {
  it('refuses guests, another user’s id, the owner and private streams', async () => {
    const live = await served.t.given.liveStream();
    const { user, client } = await viewer();
    const other = await viewer();
    expect((await served.t.client().post('/api/streams/save', { user_id: user.id, stream_id: live.streamId, save: true })).status).toBe(401);
    expect((await client.post('/api/streams/save', { user_id: other.user.id, stream_id: live.streamId, save: true })).status).toBe(403);
    const own = await live.client.post('/api/streams/save', { user_id: live.user.id, stream_id: live.streamId, save: true });
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(MSG.cannotSaveOwn);

    const secret = await served.t.given.liveStream({ audience: 'PRIVATE' });
    const privateSave = await client.post('/api/streams/save', { user_id: user.id, stream_id: secret.streamId, save: true });
    expect(privateSave.status).toBe(403);
    expect(privateSave.body.message).toBe(MSG.cannotSavePrivate);
    expect((await served.t.client().get('/api/streams/saved-streams')).status).toBe(401);
  });

  it('bookmarks idempotently, shows the flag, lists newest first and drops streams made private', async () => {
    const first = await served.t.given.liveStream({ title: 'First show' });
    const second = await served.t.given.liveStream({ title: 'Second show' });
    const { user, client } = await viewer();
    const save = (streamId: number, on: boolean) => client.post('/api/streams/save', { user_id: user.id, stream_id: streamId, save: on });

    expect((await save(first.streamId, true)).body).toEqual({ response: 'success', saved: true });
    expect((await save(first.streamId, true)).body).toMatchObject({ saved: true });
    await save(second.streamId, true);
    expect(await lookup(client, first.streamId)).toMatchObject({ saved: true });
    expect(await lookup((await viewer()).client, first.streamId)).toMatchObject({ saved: false });

    const saved = async () => (await client.get('/api/streams/saved-streams')).body as { streams: Array<{ stream_id: number; title: string }>; total: number };
    expect(await saved()).toMatchObject({ total: 2, streams: [{ stream_id: second.streamId }, { stream_id: first.streamId, title: expect.stringContaining('First show') }] });
    expect(((await client.get('/api/streams/saved-streams', { offset: 1, limit: 1 })).body.streams as unknown[]).length).toBe(1);

    await second.client.post('/api/streams/update-stream-info', { id: second.streamId, data: { audience: 'PRIVATE' } });
    expect(await saved()).toMatchObject({ total: 1, streams: [{ stream_id: first.streamId }] });

    expect((await save(first.streamId, false)).body).toMatchObject({ saved: false });
    expect((await save(first.streamId, false)).body).toMatchObject({ saved: false });
    expect(await lookup(client, first.streamId)).toMatchObject({ saved: false });
    expect((await saved()).total).toBe(0);
  });
});

describe('reporting a stream', () => {
  it('needs a complaint type, a login, and someone else’s stream', async () => {
    const live = await served.t.given.liveStream();
    const { client } = await viewer();
    const untyped = await client.post('/api/streams/report-stream', { id: live.streamId, user_comment: 'bad' });
    expect(untyped.status).toBe(400);
    expect(untyped.body.message).toBe(MSG.complaintTypeRequired);
    expect((await client.post('/api/streams/report-stream', { id: live.streamId, type: '' })).body.message).toBe(MSG.complaintTypeRequired);
    expect((await served.t.client().post('/api/streams/report-stream', { id: live.streamId, type: 'troll' })).status).toBe(401);
    const own = await live.client.post('/api/streams/report-stream', { id: live.streamId, type: 'troll' });
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(MSG.cannotReportOwnStream);
  });

  it('keeps one complaint per viewer and stream, the latest, with the comment trimmed', async () => {
    const live = await served.t.given.liveStream();
    const { user, client } = await viewer();
    expect((await client.post('/api/streams/report-stream', { id: live.streamId, type: 'troll' })).body).toEqual({ response: 'success' });
    expect((await client.post('/api/streams/report-stream', { id: live.streamId, type: 'crime', user_comment: '  selling stolen goods  ' })).status).toBe(200);
    const rows = await served.t.resources.database.db.select().from(streamReports)
      .where(and(eq(streamReports.streamId, live.streamId), eq(streamReports.reporterId, user.id)));
    expect(rows).toEqual([expect.objectContaining({ type: 'crime', comment: 'selling stolen goods' })]);
  });
});

describe('banning a viewer', () => {
  it('is refused to guests, other viewers, and for the owner or an unknown user', async () => {
    const live = await served.t.given.liveStream();
    const victim = await viewer();
    const stranger = await viewer();
    expect((await served.t.client().post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: victim.user.id })).status).toBe(401);
    const refused = await stranger.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: victim.user.id });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(MSG.streamNotAvailable);
    const owner = await live.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: live.user.id });
    expect(owner.status).toBe(400);
    expect(owner.body.message).toBe(MSG.cannotBanOwner);
    const unknown = await live.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: 999_999_999 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(MSG.userNotFound);
    expect((await victim.client.post('/api/streams/stream-join', { stream_id: live.streamId })).status).toBe(200);
  });

  it('blocks the victim’s page and tells their socket', async () => {
    const live = await served.t.given.liveStream();
    const victim = await viewer();
    const socket = await socketOf(victim.client);
    const channel = `stream:${live.streamId}`;
    expect(await socket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed', channel });

    expect((await live.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: victim.user.id })).body).toEqual({ response: 'success' });
    expect((await live.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: victim.user.id })).status).toBe(200);

    const join = await victim.client.post('/api/streams/stream-join', { stream_id: live.streamId });
    expect(join.status).toBe(403);
    expect(join.body).toMatchObject({ response: 'block', message: MSG.streamBlocked });
    expect((await victim.client.get('/api/streams/stream-lookup', { id: live.streamId })).body.response).toBe('block');
    const blocked = await socket.next((f) => f.op === 'message' && (f.message as { type?: string }).type === 'BLOCKED');
    expect(blocked).toMatchObject({ channel, message: { type: 'BLOCKED' } });
  });

  it('is allowed to stream moderators and admins', async () => {
    const live = await served.t.given.liveStream();
    const editor = await served.t.given.signedIn(await served.t.given.user({ perms: ['UPDATE STREAM_ANY'] }));
    const granter = await served.t.given.signedIn(await served.t.given.user({ perms: ['GRANT PERMISSION'] }));
    const admin = await served.t.given.signedIn(await served.t.given.user({ role: 'admin' }));
    for (const moderator of [editor, granter, admin]) {
      const victim = await viewer();
      expect((await moderator.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: victim.user.id })).status).toBe(200);
      expect((await victim.client.post('/api/streams/stream-join', { stream_id: live.streamId })).body.response).toBe('block');
    }
  });

  it('cannot lock moderators and admins out of a stream', async () => {
    const live = await served.t.given.liveStream();
    for (const options of [{ perms: ['UPDATE STREAM_ANY' as const] }, { perms: ['GRANT PERMISSION' as const] }, { role: 'admin' as const }]) {
      const moderator = await served.t.given.user(options);
      const refused = await live.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: moderator.id });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(MSG.cannotBanModerator);
      const client = await served.t.given.signedIn(moderator);
      expect((await client.post('/api/streams/stream-join', { stream_id: live.streamId })).status).toBe(200);
    }
  });
});

describe('the owner toggling chat', () => {
  it('tells the stream’s viewers the new options', async () => {
    const live = await served.t.given.liveStream();
    const fan = await viewer();
    const socket = await socketOf(fan.client);
    await socket.request({ op: 'subscribe', channel: `stream:${live.streamId}` });
    await live.client.post('/api/streams/update-stream-info', { id: live.streamId, data: { chat_enabled: false } });
    const options = await socket.next((f) => f.op === 'message' && (f.message as { type?: string }).type === 'STREAM-OPTIONS');
    expect(options.message).toMatchObject({ options: { chat_enabled: false } });
  });
});

describe('a featured stream', () => {
  it('makes a logged-in viewer follow the broadcaster with notifications on', async () => {
    const live = await served.t.given.liveStream();
    const moderator = await served.t.given.signedIn(await served.t.given.user({ perms: ['UPDATE STREAM_ANY'] }));
    expect((await moderator.post('/api/streams/report-stream-action', { stream_ids: [live.streamId], event: 'MAKE_FEATURED' })).body).toMatchObject({ affected: 1 });

    const fan = await viewer();
    const joined = await fan.client.post('/api/streams/stream-join', { stream_id: live.streamId });
    expect(joined.body.stream).toMatchObject({ stream_featured_by_user: true, is_following: true, following_notify: true });
    expect((await fan.client.get('/api/user/user-lookup', { id: live.user.id })).body.user).toMatchObject({ am_following: true, following_notify: true });

    // A viewer who follows with the bell off keeps it off; the owner and guests join as before.
    const quiet = await viewer();
    await quiet.client.post('/api/user/toggle-following', { id: live.user.id, isFollowing: true, notify: false });
    expect((await quiet.client.post('/api/streams/stream-join', { stream_id: live.streamId })).body.stream).toMatchObject({ is_following: true, following_notify: false });
    expect((await live.client.post('/api/streams/stream-join', { stream_id: live.streamId })).status).toBe(200);
    expect((await served.t.client().post('/api/streams/stream-join', { stream_id: live.streamId })).status).toBe(200);
  });

  it('does not make viewers of other streams follow', async () => {
    const live = await served.t.given.liveStream();
    const fan = await viewer();
    expect((await fan.client.post('/api/streams/stream-join', { stream_id: live.streamId })).body.stream).toMatchObject({ is_following: false });
  });
});

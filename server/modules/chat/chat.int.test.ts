import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import { FRAME_MAX_BYTES } from '../../../common/realtime';
import { startTestApp, type TestApp } from '../../testing/harness';
import { eventually } from '../../testing/eventually';
import { WsClient } from '../../testing/ws-client';
import { streams } from '../streams/tables';

let t: TestApp;
let baseUrl: string;
const sockets: WsClient[] = [];

beforeAll(async () => {
  t = await startTestApp({ STREAM_VIEWER_LIKE_LIMIT: '3' });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

let ids = 0;
const nextId = () => `c${(ids += 1)}`;

async function connect(cookie?: string) {
  const socket = await WsClient.connect(baseUrl, cookie);
  sockets.push(socket);
  return socket;
}

async function signedInSocket() {
  const user = await t.given.user();
  const client = await t.given.signedIn(user);
  return { user, socket: await connect(client.cookie('ll_session')) };
}

describe('the realtime gateway on a live stream', () => {
  it('refuses a connection opened by a page of another site, and accepts the site itself', async () => {
    await expect(WsClient.connect(baseUrl, undefined, 'https://another-site.example')).rejects.toThrow(/403/);
    const own = await WsClient.connect(baseUrl, undefined, baseUrl);
    own.socket.close();
  });

  it('subscribes viewers, answers the history, and carries a COMMENT from A to B with its sender', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const a = await signedInSocket();
    const b = await connect();
    expect(await a.socket.request({ op: 'subscribe', channel })).toEqual({ op: 'subscribed', channel, history: [] });
    expect(await b.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed', history: [] });

    const id = nextId();
    expect(await a.socket.request({ op: 'send', channel, type: 'COMMENT', text: '  hello <b>all</b>  ', id })).toEqual({ op: 'ack', id });
    const got = await b.message('COMMENT');
    expect(got).toMatchObject({
      op: 'message',
      channel,
      message: { type: 'COMMENT', text: 'hello <b>all</b>', sender: { name: a.user.username, user_id: a.user.id, is_owner: false, is_priority: false } },
    });

    const late = await connect();
    const subscribed = await late.request({ op: 'subscribe', channel });
    expect(subscribed.history).toEqual([expect.objectContaining({ type: 'COMMENT', text: 'hello <b>all</b>' })]);
  });

  it('marks the owner’s lines and cuts over-long text at 300 characters', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const owner = await connect(live.client.cookie('ll_session'));
    await owner.request({ op: 'subscribe', channel });
    const id = nextId();
    expect(await owner.request({ op: 'send', channel, type: 'COMMENT', text: 'x'.repeat(500), id })).toEqual({ op: 'ack', id });
    const got = await owner.message('COMMENT');
    const message = got.message as { text: string; sender: { is_owner: boolean } };
    expect(message.text).toBe('x'.repeat(300));
    expect(message.sender.is_owner).toBe(true);
  });

  it('refuses sends from logged-out sockets, empty text, forged types and disabled chat', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const guest = await connect();
    const refused = await guest.request({ op: 'send', channel, type: 'COMMENT', text: 'hi', id: 'g1' });
    expect(refused).toMatchObject({ op: 'error', id: 'g1', code: 'unauthorized', message: MSG.notLoggedIn });

    const { socket } = await signedInSocket();
    expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: '   ', id: 'e1' })).toMatchObject({ op: 'error', id: 'e1' });
    // Only COMMENT and LIKE are sends: other types are not in the contract, and the answer still reaches the send.
    for (const type of ['TIP', 'STREAM-END', 'BLOCKED']) {
      const id = `f-${type}`;
      expect(await socket.request({ op: 'send', channel, type, text: 'forged', id })).toMatchObject({ op: 'error', id, code: 'bad_frame' });
    }

    await live.client.post('/api/streams/update-stream-info', { id: live.streamId, data: { chat_enabled: false } });
    expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: 'hi', id: 'd1' })).toMatchObject({ op: 'error', id: 'd1', code: 'forbidden' });
  });

  it('counts likes up to the limit, and owners cannot like their own stream', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const { socket } = await signedInSocket();
    await socket.request({ op: 'subscribe', channel });
    for (const id of ['l1', 'l2']) expect(await socket.request({ op: 'send', channel, type: 'LIKE', likes: 1, id })).toEqual({ op: 'ack', id });
    expect(await socket.message('LIKE')).toMatchObject({ message: { type: 'LIKE', likes: 1 } });
    expect(await socket.request({ op: 'send', channel, type: 'LIKE', likes: 1, id: 'l3' })).toMatchObject({ op: 'error', message: MSG.likeLimit });

    const owner = await connect(live.client.cookie('ll_session'));
    expect(await owner.request({ op: 'send', channel, type: 'LIKE', likes: 1, id: 'o1' })).toMatchObject({ op: 'error', code: 'forbidden' });
  });

  it('refuses subscriptions to hidden and private streams and to other users’ channels', async () => {
    const owner = await t.given.signedIn(await t.given.user());
    const hidden = (await owner.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number };
    const { user, socket } = await signedInSocket();
    expect(await socket.request({ op: 'subscribe', channel: `stream:${hidden.stream_id}` })).toMatchObject({ op: 'error', code: 'not_found' });

    const privateLive = await t.given.liveStream({ audience: 'PRIVATE' });
    expect(await socket.request({ op: 'subscribe', channel: `stream:${privateLive.streamId}` })).toMatchObject({ op: 'error', code: 'forbidden', message: MSG.streamPrivate });

    expect(await socket.request({ op: 'subscribe', channel: `user:${user.id}` })).toMatchObject({ op: 'subscribed' });
    expect(await socket.request({ op: 'subscribe', channel: `user:${privateLive.user.id}` })).toMatchObject({ op: 'error', code: 'forbidden' });
  });

  it('sends STREAM-END when the broadcast ends', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const viewer = await connect();
    await viewer.request({ op: 'subscribe', channel });
    await t.app.services.broadcastCallbacks.onEnded({ streamId: live.streamId, broadcastId: 'b1', playlistKey: `media/${live.streamId}/b1/index.m3u8`, lengthSeconds: 5 });
    expect(await viewer.message('STREAM-END')).toEqual({ op: 'message', channel, message: { type: 'STREAM-END' } });
  });


  it('tells the owner’s own channel STREAM-LIVE once the encoder is on and Go Live pressed, whichever came last', async () => {
    const owner = await t.given.signedInUser();
    const stream = (await owner.client.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number; broadcast_key: string };
    await owner.client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Soon', audience: 'PUBLIC', rating: 'G' } });
    const socket = await connect(owner.client.cookie('ll_session'));
    const channel = `user:${owner.user.id}`;
    await socket.request({ op: 'subscribe', channel });

    const callbacks = t.app.services.broadcastCallbacks;
    await callbacks.startBroadcast(stream.broadcast_key);
    await callbacks.onLive({ streamId: stream.stream_id, broadcastId: 'b1', playlistKey: `media/${stream.stream_id}/b1/index.m3u8`, width: 640, height: 360 });
    // Still hidden: the encoder alone does not put it on air.
    await expect(socket.message('STREAM-LIVE', 300)).rejects.toThrow(/no matching frame/);

    expect((await owner.client.post('/api/streams/go-live', { id: stream.stream_id })).status).toBe(200);
    expect(await socket.message('STREAM-LIVE')).toEqual({ op: 'message', channel, message: { type: 'STREAM-LIVE', data: { stream_id: stream.stream_id } } });
  });
  it('tells the owner’s own channel STREAM-STOPPED with the reason when the ingest ends a broadcast because the disk is full', async () => {
    const owner = await t.given.signedInUser();
    const live = await t.given.liveStream({}, owner.user);
    const socket = await connect(owner.client.cookie('ll_session'));
    const channel = `user:${owner.user.id}`;
    await socket.request({ op: 'subscribe', channel });
    const viewer = await connect();
    await viewer.request({ op: 'subscribe', channel: `stream:${live.streamId}` });

    await t.app.services.broadcastCallbacks.onEnded({ streamId: live.streamId, broadcastId: 'b1', playlistKey: `media/${live.streamId}/b1/index.m3u8`, lengthSeconds: 5, reason: 'disk-full' });
    expect(await socket.message('STREAM-STOPPED')).toEqual({ op: 'message', channel, message: { type: 'STREAM-STOPPED', data: { stream_id: live.streamId, reason: 'disk-full' } } });
    // Viewers see the stream end as any other.
    expect(await viewer.message('STREAM-END')).toMatchObject({ message: { type: 'STREAM-END' } });
    // An end the encoder or the owner chose says nothing of the kind.
    const next = await t.given.liveStream({}, owner.user);
    await t.app.services.broadcastCallbacks.onEnded({ streamId: next.streamId, broadcastId: 'b2', playlistKey: `media/${next.streamId}/b2/index.m3u8`, lengthSeconds: 5 });
    await expect(socket.message('STREAM-STOPPED', 300)).rejects.toThrow(/no matching frame/);
  });

  it('answers bad frames with an error frame, pings with pong, and stays up', async () => {
    const socket = await connect();
    socket.send('{not json');
    expect(await socket.next()).toMatchObject({ op: 'error', code: 'bad_frame' });
    socket.send({ op: 'dance' });
    expect(await socket.next()).toMatchObject({ op: 'error', code: 'bad_frame' });
    socket.send({ op: 'send', channel: 'stream:1', type: 'COMMENT', text: 'y'.repeat(FRAME_MAX_BYTES + 100), id: 'big' });
    expect(await socket.next()).toMatchObject({ op: 'error', code: 'bad_frame' });
    socket.send({ op: 'ping' });
    expect(await socket.next()).toEqual({ op: 'pong' });
  });

  it('applies a sign-out to an open socket at once: its own channel is left and its next line refused', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    const socket = await connect(client.cookie('ll_session'));
    expect((await socket.request({ op: 'subscribe', channel: `user:${user.id}` })).op).toBe('subscribed');
    expect((await socket.request({ op: 'subscribe', channel })).op).toBe('subscribed');
    const before = nextId();
    expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: 'signed in', id: before })).toEqual({ op: 'ack', id: before });

    expect((await client.post('/api/user/logout')).status).toBe(200);
    // The principal a socket acts on lasts 30 s; the sign-out must not wait for it.
    expect(await socket.next((f) => f.op === 'error' && f.channel === `user:${user.id}`)).toMatchObject({ code: 'unauthorized' });
    const after = nextId();
    expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: 'signed out', id: after })).toMatchObject({ op: 'error', id: after, code: 'unauthorized' });
  });
});

describe('presence, priority chat, chat limits', () => {
  it('counts the viewers on the stream’s channel, the broadcaster not among them, and announces signed-in arrivals and departures', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const viewersNow = async () => ((await t.client().get(`/api/streams/stream-lookup?id=${live.streamId}`)).body.stream as { viewers: number }).viewers;
    /** What the broadcaster's dashboard reads: the same count. */
    const dashboardViewers = async () => ((await live.client.get('/api/streams/live-session', { id: live.streamId })).body as { viewers: number }).viewers;
    // The broadcaster on their own stream, on two sockets (dashboard and stream page), is no viewer.
    const owner = await connect(live.client.cookie('ll_session'));
    await owner.request({ op: 'subscribe', channel });
    const ownerPage = await connect(live.client.cookie('ll_session'));
    await ownerPage.request({ op: 'subscribe', channel });
    // Arrivals are told to the owner alone, on the owner's own channel.
    await owner.request({ op: 'subscribe', channel: `user:${live.user.id}` });
    const guest = await connect();
    await guest.request({ op: 'subscribe', channel });
    const { user, socket } = await signedInSocket();
    await socket.request({ op: 'subscribe', channel });
    // The same user on a second socket is still one viewer.
    const again = await connect((await t.given.signedIn(user)).cookie('ll_session'));
    await again.request({ op: 'subscribe', channel });
    const arrivalOf = (type: string) => owner.next((f) => f.op === 'message' && (f.message as { type: string; sender?: { user_id: number } }).type === type
      && (f.message as { sender?: { user_id: number } }).sender?.user_id === user.id);
    expect(await arrivalOf('CONNECTED')).toBeTruthy();
    expect(await eventually(viewersNow, (n) => n === 2)).toBe(2);
    expect(await dashboardViewers()).toBe(2);

    socket.close();
    again.close();
    expect(await arrivalOf('DISCONNECTED')).toBeTruthy();
    expect(await eventually(viewersNow, (n) => n === 1)).toBe(1);
    expect(await dashboardViewers()).toBe(1);
    guest.request({ op: 'unsubscribe', channel }).catch(() => undefined);
    expect(await eventually(viewersNow, (n) => n === 0)).toBe(0);
    expect(await dashboardViewers()).toBe(0);
  });

  it('tells everyone on the stream the new viewer count as viewers join and leave', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const first = await signedInSocket();
    await first.socket.request({ op: 'subscribe', channel });
    const countOf = (socket: WsClient, viewers: number) =>
      socket.next((f) => f.op === 'message' && (f.message as { type: string; viewers?: number }).type === 'VIEWERS' && (f.message as { viewers: number }).viewers === viewers);
    expect(await countOf(first.socket, 1)).toMatchObject({ channel, message: { type: 'VIEWERS', viewers: 1 } });
    const second = await signedInSocket();
    await second.socket.request({ op: 'subscribe', channel });
    const third = await connect();
    await third.request({ op: 'subscribe', channel });
    // The one who was there first hears each arrival without asking.
    expect(await countOf(first.socket, 3)).toBeTruthy();
    expect(await countOf(third, 3)).toBeTruthy();
    second.socket.close();
    expect(await countOf(first.socket, 2)).toBeTruthy();
    const lookup = await t.client().get(`/api/streams/stream-lookup?id=${live.streamId}`);
    expect(lookup.body.stream).toMatchObject({ viewers: 2 });
  });

  it('counts realtime likes in the stream info (rlikes) beside the likes saved on leaving', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const a = await signedInSocket();
    const b = await signedInSocket();
    await a.socket.request({ op: 'subscribe', channel });
    await b.socket.request({ op: 'subscribe', channel });
    const info = async () => (await t.client().get(`/api/streams/stream-lookup?id=${live.streamId}`)).body.stream as { likes: number; rlikes: number };
    expect(await info()).toMatchObject({ likes: 0, rlikes: 0 });
    expect(await a.socket.request({ op: 'send', channel, type: 'LIKE', likes: 1, id: nextId() })).toMatchObject({ op: 'ack' });
    expect(await b.socket.request({ op: 'send', channel, type: 'LIKE', likes: 1, id: nextId() })).toMatchObject({ op: 'ack' });
    expect(await a.socket.request({ op: 'send', channel, type: 'LIKE', likes: 1, id: nextId() })).toMatchObject({ op: 'ack' });
    // The other viewer sees each like as it is given.
    expect(await b.socket.message('LIKE')).toMatchObject({ message: { likes: 1, sender: { user_id: a.user.id } } });
    expect(await info()).toMatchObject({ likes: 0, rlikes: 3 });
    // The stream's tile in listings carries them too.
    const tiles = (await t.client().get('/api/streams/user-streams', { id: live.user.id })).body.streams as Array<{ stream_id: number; rlikes: number }>;
    expect(tiles.find((tile) => tile.stream_id === live.streamId)).toMatchObject({ likes: 0, rlikes: 3 });

    // Leaving with the same likes counts them once; a client that likes only on leaving is counted then.
    const aClient = await t.given.signedIn(a.user);
    await aClient.post('/api/streams/stream-join', { stream_id: live.streamId });
    await aClient.post('/api/streams/leave-stream', { id: live.streamId, likes: 2 });
    expect(await info()).toMatchObject({ likes: 0, rlikes: 3 });
    const c = await t.given.signedIn(await t.given.user());
    await c.post('/api/streams/stream-join', { stream_id: live.streamId });
    await c.post('/api/streams/leave-stream', { id: live.streamId, likes: 2 });
    expect(await info()).toMatchObject({ likes: 2, rlikes: 3 });
    // The broadcaster's profile and their line in the user search count both.
    expect((await t.client().get('/api/user/user-lookup', { id: live.user.id })).body.user).toMatchObject({ likes: 5 });
    const found = (await t.client().get('/api/channel/search-user', { search: live.user.username })).body.users as Array<{ user_id: number }>;
    expect(found.find((u) => u.user_id === live.user.id)).toMatchObject({ likes: 5 });
  });

  it('keeps the priority channel to the owner, marks its lines, and keeps them off the public channel', async () => {
    const live = await t.given.liveStream();
    const priority = `stream:${live.streamId}:priority`;
    const { socket } = await signedInSocket();
    expect(await socket.request({ op: 'subscribe', channel: priority })).toMatchObject({ op: 'error', code: 'forbidden', message: MSG.priorityChatOnly });
    expect(await socket.request({ op: 'send', channel: priority, type: 'COMMENT', text: 'sneaky', id: 'p0' })).toMatchObject({ op: 'error', code: 'forbidden' });
    await socket.request({ op: 'subscribe', channel: `stream:${live.streamId}` });

    const owner = await connect(live.client.cookie('ll_session'));
    expect(await owner.request({ op: 'subscribe', channel: priority })).toMatchObject({ op: 'subscribed', history: [] });
    expect(await owner.request({ op: 'send', channel: priority, type: 'COMMENT', text: 'for my subscribers', id: 'p1' })).toEqual({ op: 'ack', id: 'p1' });
    expect(await owner.message('COMMENT')).toMatchObject({ channel: priority, message: { text: 'for my subscribers', sender: { is_priority: true, is_owner: true } } });
    const lookup = await live.client.get(`/api/streams/stream-lookup?id=${live.streamId}`);
    expect(lookup.body.stream).toMatchObject({ priority_chat: true });
    const publicHistory = await (await connect()).request({ op: 'subscribe', channel: `stream:${live.streamId}` });
    expect(publicHistory.history).toEqual([]);
    await expect(socket.message('COMMENT', 300)).rejects.toThrow(/no matching frame/);
  });

  it('refuses a viewer who posts faster than the chat allows, even in one burst over two sockets', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const { user, socket } = await signedInSocket();
    const second = await connect((await t.given.signedIn(user)).cookie('ll_session'));
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) =>
      (i % 2 ? second : socket).request({ op: 'send', channel, type: 'COMMENT', text: `line ${i}`, id: `r${i}` })));
    expect(answers.filter((a) => a.op === 'ack')).toHaveLength(10);
    expect(answers.filter((a) => a.op === 'error')).toEqual(Array(20).fill(expect.objectContaining({ code: 'rate_limited', message: MSG.chatTooFast })));
  });

  it('checks viewers already on the channel again when the stream turns private', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const guest = await connect();
    await guest.request({ op: 'subscribe', channel });
    await live.client.post('/api/streams/update-stream-info', { id: live.streamId, data: { audience: 'PRIVATE' } });
    expect(await guest.next((f) => f.op === 'error' && f.channel === channel)).toMatchObject({ code: 'forbidden', message: MSG.streamPrivate });
    const owner = await connect(live.client.cookie('ll_session'));
    await owner.request({ op: 'subscribe', channel });
    await owner.request({ op: 'send', channel, type: 'COMMENT', text: 'private words', id: 'pw' });
    await owner.message('COMMENT');
    await expect(guest.message('COMMENT', 300)).rejects.toThrow(/no matching frame/);
  });

  it('asks for payment before chatting on a paid-chat skin’s stream unless the viewer holds the chat permissions', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    await t.resources.database.db.update(streams).set({ skin: 'afterdark' }).where(eq(streams.id, live.streamId));
    const unpaid = await t.given.user({ perms: [] });
    // The stream's skin decides, whichever skin the page names.
    for (const query of ['?service=afterdark', '?service=limelight', '']) {
      const socket = await WsClient.connect(baseUrl, (await t.given.signedIn(unpaid)).cookie('ll_session'), undefined, { query });
      sockets.push(socket);
      expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: 'hi', id: 'u1' }))
        .toMatchObject({ op: 'error', code: 'chat_payment_required', message: MSG.chatPaymentNeeded });
      // Likes are not chat: they stay free.
      if (query === '') expect(await socket.request({ op: 'send', channel, type: 'LIKE', likes: 1, id: 'u2' })).toEqual({ op: 'ack', id: 'u2' });
    }
    const paid = await t.given.user({ perms: ['CREATE STREAM_CHAT', 'CREATE STREAM_CHAT_G'] });
    const paidSocket = await connect((await t.given.signedIn(paid)).cookie('ll_session'));
    expect(await paidSocket.request({ op: 'send', channel, type: 'COMMENT', text: 'hi', id: 'u3' })).toEqual({ op: 'ack', id: 'u3' });
    // A stream of the default skin has no paid chat.
    const free = await t.given.liveStream();
    const unpaidOnFree = await connect((await t.given.signedIn(unpaid)).cookie('ll_session'));
    expect(await unpaidOnFree.request({ op: 'send', channel: `stream:${free.streamId}`, type: 'COMMENT', text: 'hi', id: 'u4' })).toEqual({ op: 'ack', id: 'u4' });
  });

  it('sends BLOCKED to a banned viewer’s sockets and takes them off the stream', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const { user, socket } = await signedInSocket();
    await socket.request({ op: 'subscribe', channel });
    await t.app.services.chat.blockViewer(live.streamId, user.id);
    expect(await socket.message('BLOCKED')).toMatchObject({ channel, message: { text: String(user.id), data: { user_id: user.id } } });
    const other = await connect();
    await other.request({ op: 'subscribe', channel });
    await live.client.post('/api/streams/update-stream-info', { id: live.streamId, data: { title: 'Still here' } });
    expect(await socket.request({ op: 'send', channel, type: 'LIKE', likes: 1, id: 'b1' })).toMatchObject({ op: 'ack' });
    await other.message('LIKE');
    // The like reached the channel, but the banned socket no longer hears it.
    await expect(socket.message('LIKE', 300)).rejects.toThrow(/no matching frame/);
  });
});

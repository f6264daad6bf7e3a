import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import { goLive } from '../../testing/live-stream';
import { WsClient } from '../../testing/ws-client';
import { LIKE_LIMIT_REACHED } from './service';

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
    const live = await goLive(t);
    const channel = `stream:${live.streamId}`;
    const a = await signedInSocket();
    const b = await connect();
    expect(await a.socket.request({ op: 'subscribe', channel })).toEqual({ op: 'subscribed', channel, history: [] });
    expect(await b.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed', history: [] });

    const id = nextId();
    expect(await a.socket.request({ op: 'send', channel, type: 'COMMENT', text: '  hello <b>all</b>  ', id })).toEqual({ op: 'ack', id });
    const got = await b.next((f) => f.op === 'message');
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
    const live = await goLive(t);
    const channel = `stream:${live.streamId}`;
    const owner = await connect(live.client.cookie('ll_session'));
    await owner.request({ op: 'subscribe', channel });
    const id = nextId();
    expect(await owner.request({ op: 'send', channel, type: 'COMMENT', text: 'x'.repeat(500), id })).toEqual({ op: 'ack', id });
    const got = await owner.next((f) => f.op === 'message');
    const message = got.message as { text: string; sender: { is_owner: boolean } };
    expect(message.text).toBe('x'.repeat(300));
    expect(message.sender.is_owner).toBe(true);
  });

  it('refuses sends from logged-out sockets, empty text, forged types and disabled chat', async () => {
    const live = await goLive(t);
    const channel = `stream:${live.streamId}`;
    const guest = await connect();
    const refused = await guest.request({ op: 'send', channel, type: 'COMMENT', text: 'hi', id: 'g1' });
    expect(refused).toMatchObject({ op: 'error', id: 'g1', code: 'unauthorized', message: MSG.notLoggedIn });

    const { socket } = await signedInSocket();
    expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: '   ', id: 'e1' })).toMatchObject({ op: 'error', id: 'e1' });
    for (const type of ['TIP', 'STREAM-END', 'BLOCKED']) {
      expect(await socket.request({ op: 'send', channel, type, text: 'forged', id: `f-${type}` })).toMatchObject({ op: 'error', code: 'forbidden' });
    }

    await live.client.post('/api/streams/update-stream-info', { id: live.streamId, data: { chat_enabled: false } });
    expect(await socket.request({ op: 'send', channel, type: 'COMMENT', text: 'hi', id: 'd1' })).toMatchObject({ op: 'error', id: 'd1', code: 'forbidden' });
  });

  it('counts likes up to the limit, and owners cannot like their own stream', async () => {
    const live = await goLive(t);
    const channel = `stream:${live.streamId}`;
    const { socket } = await signedInSocket();
    await socket.request({ op: 'subscribe', channel });
    for (const id of ['l1', 'l2']) expect(await socket.request({ op: 'send', channel, type: 'LIKE', likes: 1, id })).toEqual({ op: 'ack', id });
    expect(await socket.next((f) => f.op === 'message')).toMatchObject({ message: { type: 'LIKE', likes: 1 } });
    expect(await socket.request({ op: 'send', channel, type: 'LIKE', likes: 1, id: 'l3' })).toMatchObject({ op: 'error', message: LIKE_LIMIT_REACHED });

    const owner = await connect(live.client.cookie('ll_session'));
    expect(await owner.request({ op: 'send', channel, type: 'LIKE', likes: 1, id: 'o1' })).toMatchObject({ op: 'error', code: 'forbidden' });
  });

  it('refuses subscriptions to hidden and private streams and to other users’ channels', async () => {
    const owner = await t.given.signedIn(await t.given.user());
    const hidden = (await owner.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number };
    const { user, socket } = await signedInSocket();
    expect(await socket.request({ op: 'subscribe', channel: `stream:${hidden.stream_id}` })).toMatchObject({ op: 'error', code: 'not_found' });

    const privateLive = await goLive(t, { audience: 'PRIVATE' });
    expect(await socket.request({ op: 'subscribe', channel: `stream:${privateLive.streamId}` })).toMatchObject({ op: 'error', code: 'forbidden', message: MSG.streamPrivate });

    expect(await socket.request({ op: 'subscribe', channel: `user:${user.id}` })).toMatchObject({ op: 'subscribed' });
    expect(await socket.request({ op: 'subscribe', channel: `user:${privateLive.user.id}` })).toMatchObject({ op: 'error', code: 'forbidden' });
  });

  it('sends STREAM-END when the broadcast ends', async () => {
    const live = await goLive(t);
    const channel = `stream:${live.streamId}`;
    const viewer = await connect();
    await viewer.request({ op: 'subscribe', channel });
    await t.app.services.broadcastHooks.onEnded({ streamId: live.streamId, broadcastId: 'b1', playlistKey: `media/${live.streamId}/b1/index.m3u8`, lengthSeconds: 5 });
    expect(await viewer.next((f) => f.op === 'message')).toEqual({ op: 'message', channel, message: { type: 'STREAM-END' } });
  });

  it('answers bad frames with an error frame, pings with pong, and stays up', async () => {
    const socket = await connect();
    socket.send('{not json');
    expect(await socket.next()).toMatchObject({ op: 'error', code: 'bad_frame' });
    socket.send({ op: 'dance' });
    expect(await socket.next()).toMatchObject({ op: 'error', code: 'bad_frame' });
    socket.send({ op: 'send', channel: 'stream:1', type: 'COMMENT', text: 'y'.repeat(9000), id: 'big' });
    expect(await socket.next()).toMatchObject({ op: 'error', code: 'bad_frame' });
    socket.send({ op: 'ping' });
    expect(await socket.next()).toEqual({ op: 'pong' });
  });
});

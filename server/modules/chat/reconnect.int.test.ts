/** A graceful stop tells sockets to reconnect; a resubscribing viewer gets exactly the lines and tips it missed (decision 0042). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLAY_MAX_LINES, type ReplayCursor } from '../../../common/realtime';
import { SERVER_RESTARTING } from '../../../common/realtime-channels';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { LiveStream } from '../../testing/given';
import { WsClient } from '../../testing/ws-client';
import { CHAT_RATE } from './service';
import { chatMessages } from './tables';

let t: TestApp;
let baseUrl: string;
const sockets: WsClient[] = [];

beforeAll(async () => {
  t = await startTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const socket of sockets) if (socket.socket.readyState === socket.socket.OPEN) socket.close();
  await t.close();
});

async function connect(cookie?: string) {
  const socket = await WsClient.connect(baseUrl, cookie);
  sockets.push(socket);
  return socket;
}

interface Line {
  type: string;
  timetoken: string;
  text: string;
}

/** Where a viewer's copy of the channel ends after these lines (what the web client keeps). */
function cursorAfter(lines: Line[]): ReplayCursor {
  const last = (type: string) => lines.filter((l) => l.type === type).at(-1)?.timetoken ?? '0';
  return { comment: last('COMMENT'), tip: last('TIP') };
}

let sends = 0;

/** `count` chat lines on the stream from as many chatters as the chat rate needs, each acknowledged; answers their texts in order. */
async function chatLines(live: LiveStream, count: number, tipEvery: number, tipper: { id: number }): Promise<string[]> {
  const channel = `stream:${live.streamId}`;
  const said: string[] = [];
  let chatter: WsClient | null = null;
  for (let i = 0; i < count; i++) {
    if (i % CHAT_RATE.lines === 0) {
      chatter = await connect((await t.given.signedIn(await t.given.user())).cookie('ll_session'));
      await chatter.request({ op: 'subscribe', channel });
    }
    const text = `line ${i}`;
    const id = `r${(sends += 1)}`;
    expect(await chatter!.request({ op: 'send', channel, type: 'COMMENT', text, id })).toEqual({ op: 'ack', id });
    said.push(text);
    if (i % tipEvery === tipEvery - 1) {
      const amount = i + 1;
      await t.given.pastTip({ tipperId: tipper.id, creatorId: live.user.id, streamId: live.streamId, amount, at: new Date() });
      said.push(`tip ${amount}`);
    }
  }
  return said;
}

const asSaid = (lines: Line[]) => lines.map((l) => (l.type === 'TIP' ? `tip ${(l as unknown as { data: { recipient_amount: number } }).data.recipient_amount}` : l.text));

describe('reconnecting to a live stream', () => {
  it('replays exactly the lines and tips a viewer missed, in order, past the 50 of a first history', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const tipper = await t.given.user();
    await t.given.coins(tipper, 100_000);
    const before = await chatLines(live, 5, 2, tipper);

    const viewer = await connect();
    const first = await viewer.request({ op: 'subscribe', channel });
    const seen = first.history as Line[];
    expect(asSaid(seen)).toEqual(before);
    viewer.close();

    // 60 lines and 20 tips while the viewer is away: more than a first subscription's 50 lines.
    const missed = await chatLines(live, 60, 3, tipper);
    const back = await connect();
    const replayed = await back.request({ op: 'subscribe', channel, after: cursorAfter(seen) });
    expect(replayed.replay).toEqual({ skipped: false });
    expect(asSaid(replayed.history as Line[])).toEqual(missed);

    // Caught up: asking again after the last line answers nothing.
    const again = await back.request({ op: 'subscribe', channel, after: cursorAfter(replayed.history as Line[]) });
    expect(again).toMatchObject({ history: [], replay: { skipped: false } });
  });

  it('says when more lines came than a replay carries, and answers the newest of them with every tip missed', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const viewer = await connect();
    const first = await viewer.request({ op: 'subscribe', channel });
    // Stored lines, as the chat writes them, more than the bound.
    const rows = Array.from({ length: REPLAY_MAX_LINES + 20 }, (_, i) => ({ streamId: live.streamId, userId: live.user.id, type: 'COMMENT', text: `stored ${i}` }));
    await t.resources.database.db.insert(chatMessages).values(rows);

    // And more tips than a first history carries: every one of them is replayed.
    const tipper = await t.given.user();
    await t.given.coins(tipper, 100_000);
    const tipped: number[] = [];
    for (let amount = 1; amount <= 60; amount++) {
      await t.given.pastTip({ tipperId: tipper.id, creatorId: live.user.id, streamId: live.streamId, amount, at: new Date() });
      tipped.push(amount);
    }

    const replayed = await viewer.request({ op: 'subscribe', channel, after: cursorAfter(first.history as Line[]) });
    expect(replayed.replay).toEqual({ skipped: true });
    const history = replayed.history as Line[];
    expect(history.filter((l) => l.type === 'TIP').map((l) => (l as unknown as { data: { recipient_amount: number } }).data.recipient_amount)).toEqual(tipped);
    const texts = history.filter((l) => l.type === 'COMMENT').map((l) => l.text);
    expect(texts).toHaveLength(REPLAY_MAX_LINES);
    expect(texts[0]).toBe('stored 20');
    expect(texts.at(-1)).toBe(`stored ${REPLAY_MAX_LINES + 19}`);
  });

  it('refuses a replay cursor that is not a timetoken, and reads one past every id as caught up', async () => {
    const live = await t.given.liveStream();
    const channel = `stream:${live.streamId}`;
    const viewer = await connect();
    viewer.send({ op: 'subscribe', channel, after: { comment: 'x', tip: '0' } });
    expect(await viewer.next((f) => f.op === 'error' || f.op === 'subscribed')).toMatchObject({ op: 'error', code: 'bad_frame' });
    const far = '9'.repeat(20);
    expect(await viewer.request({ op: 'subscribe', channel, after: { comment: far, tip: far } })).toMatchObject({ op: 'subscribed', history: [], replay: { skipped: false } });
  });
});

describe('a graceful stop', () => {
  it('tells every open socket to reconnect, with the restart code and reason', async () => {
    const own = await startTestApp();
    const url = await own.app.listen({ port: 0, host: '127.0.0.1' });
    const live = await own.given.liveStream();
    const clients = await Promise.all([WsClient.connect(url), WsClient.connect(url), WsClient.connect(url, live.client.cookie('ll_session'))]);
    await clients[0]!.request({ op: 'subscribe', channel: `stream:${live.streamId}` });
    const closed = clients.map((c) => new Promise<{ code: number; reason: string }>((resolve) => {
      c.socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    }));
    await own.close();
    expect(await Promise.all(closed)).toEqual(clients.map(() => ({ code: SERVER_RESTARTING.code, reason: SERVER_RESTARTING.reason })));
  });
});

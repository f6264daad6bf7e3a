import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HistoryMessage, RealtimeMessage } from '../../common/realtime';
import { SERVER_RESTARTING } from '../../common/realtime-channels';
import { SAMPLE_OF_EACH_TYPE, sampleComment, sampleTip } from '../../common/testing/realtime-samples';
import {
  BACKOFF_MAX_MS,
  GOOD_CONNECTION_MS,
  PING_INTERVAL_MS,
  PONG_TIMEOUT_MS,
  RealtimeClient,
  RealtimeError,
  backoffDelay,
  parseServerFrame,
  resetIdPrefixForTests,
  routeFrame,
} from './realtime';
import type { SocketLike } from './realtime';

describe('backoffDelay', () => {
  it('doubles from 1 s up to 30 s without jitter in the middle of the range', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((n) => backoffDelay(n, middle))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('keeps jitter within ±20 % and never above the cap', () => {
    for (const r of [0, 0.25, 0.999]) {
      expect(backoffDelay(0, () => r)).toBeGreaterThanOrEqual(800);
      expect(backoffDelay(0, () => r)).toBeLessThanOrEqual(1200);
      expect(backoffDelay(20, () => r)).toBeLessThanOrEqual(BACKOFF_MAX_MS);
      expect(backoffDelay(20, () => r)).toBeGreaterThanOrEqual(BACKOFF_MAX_MS * 0.8);
    }
  });
});

describe('parseServerFrame and routeFrame', () => {
  it('refuses what is not a server frame, and logs it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(parseServerFrame('not json')).toBeNull();
    expect(parseServerFrame('{"op":"nope"}')).toBeNull();
    expect(parseServerFrame('{"op":"ack"}')).toBeNull();
    expect(parseServerFrame('{"op":"error","code":"x"}')).toBeNull();
    expect(parseServerFrame(JSON.stringify({ op: 'message', channel: 'stream:1', message: { type: 'COMMENT', text: 'no sender' } }))).toBeNull();
    expect(parseServerFrame(42)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(6);
    warn.mockRestore();
  });

  it('hands over the frame as the contract reads it', () => {
    const frame = { op: 'message', channel: 'stream:1', message: SAMPLE_OF_EACH_TYPE.TIP };
    expect(parseServerFrame(JSON.stringify(frame))).toEqual(frame);
  });

  it('sends an error with an id to the waiting send, one with only a channel to the subscriber', () => {
    const send = parseServerFrame('{"op":"error","channel":"stream:1","id":"a-1","code":"like_limit","message":"You have reached the Like limit"}');
    expect(send && routeFrame(send)).toEqual({ to: 'send', id: 'a-1', outcome: 'error' });
    const sub = parseServerFrame('{"op":"error","channel":"stream:1","code":"block","message":"no"}');
    expect(sub && routeFrame(sub)).toEqual({ to: 'channel', channel: 'stream:1', deliver: 'error' });
    const bare = parseServerFrame('{"op":"error","code":"bad_frame","message":"x"}');
    expect(bare && routeFrame(bare)).toEqual({ to: 'nobody' });
  });

  it('routes messages, histories, acks and heartbeats', () => {
    const route = (raw: string) => {
      const frame = parseServerFrame(raw);
      return frame && routeFrame(frame);
    };
    expect(route(JSON.stringify({ op: 'message', channel: 'stream:1', message: SAMPLE_OF_EACH_TYPE.LIKE }))).toEqual({ to: 'channel', channel: 'stream:1', deliver: 'message' });
    expect(route(JSON.stringify({ op: 'messages', channel: 'stream:1', messages: [sampleComment('a'), sampleComment('b')] }))).toEqual({ to: 'channel', channel: 'stream:1', deliver: 'message' });
    expect(route('{"op":"subscribed","channel":"stream:1","history":[]}')).toEqual({ to: 'channel', channel: 'stream:1', deliver: 'subscribed' });
    expect(route('{"op":"ack","id":"x"}')).toEqual({ to: 'send', id: 'x', outcome: 'ack' });
    expect(route('{"op":"ping"}')).toEqual({ to: 'heartbeat', reply: true });
    expect(route('{"op":"pong"}')).toEqual({ to: 'heartbeat', reply: false });
  });
});

class FakeSocket implements SocketLike {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Array<Record<string, unknown>> = [];
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close() {
    this.readyState = 3;
  }

  open() {
    this.readyState = 1;
    this.onopen?.({});
  }

  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }

  receive(frame: object) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }

  ops() {
    return this.sent.map((f) => f.op);
  }
}

const latest = () => FakeSocket.all[FakeSocket.all.length - 1]!;

function newClient() {
  return new RealtimeClient({ url: 'ws://test/ws', createSocket: (url) => new FakeSocket(url), random: () => 0.5 });
}

describe('RealtimeClient', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
    resetIdPrefixForTests('t');
  });
  afterEach(() => vi.useRealTimers());

  it('connects on the first subscribe and subscribes once open, delivering history and messages', () => {
    const client = newClient();
    const messages: RealtimeMessage[] = [];
    const histories: HistoryMessage[][] = [];
    client.subscribe('stream:1', { onMessage: (m) => messages.push(m), onSubscribed: (h) => histories.push(h) });
    expect(client.status).toBe('connecting');
    const socket = latest();
    socket.open();
    expect(client.status).toBe('open');
    expect(socket.sent).toEqual([{ op: 'subscribe', channel: 'stream:1' }]);
    socket.receive({ op: 'subscribed', channel: 'stream:1', history: [sampleComment('old', '1')] });
    socket.receive({ op: 'message', channel: 'stream:1', message: sampleComment('hi', '2') });
    socket.receive({ op: 'message', channel: 'stream:2', message: sampleComment('elsewhere', '3') });
    expect(histories).toEqual([[sampleComment('old', '1')]]);
    expect(messages).toEqual([sampleComment('hi', '2')]);
  });

  it('hands each message of a messages frame to the listeners exactly as if it had arrived alone', () => {
    const lines = [sampleComment('one', '1'), SAMPLE_OF_EACH_TYPE.LIKE, sampleComment('two', '2'), sampleComment('three', '3')];
    /** Two listeners; the second stops listening once it has read 'two'. What each heard, in the order heard. */
    const heardWith = (deliver: (socket: FakeSocket) => void) => {
      const client = newClient();
      const heard: string[] = [];
      client.subscribe('stream:1', (m) => heard.push(`a:${m.type}:${'text' in m ? m.text : ''}`));
      const stop = client.subscribe('stream:1', (m) => {
        heard.push(`b:${m.type}:${'text' in m ? m.text : ''}`);
        if ('text' in m && m.text === 'two') stop();
      });
      const socket = latest();
      socket.open();
      deliver(socket);
      client.close();
      return heard;
    };
    const alone = heardWith((socket) => {
      for (const message of lines) socket.receive({ op: 'message', channel: 'stream:1', message });
    });
    const batched = heardWith((socket) => socket.receive({ op: 'messages', channel: 'stream:1', messages: lines }));
    expect(batched).toEqual(alone);
    expect(batched).toEqual(['a:COMMENT:one', 'b:COMMENT:one', 'a:LIKE:', 'b:LIKE:', 'a:COMMENT:two', 'b:COMMENT:two', 'a:COMMENT:three']);
  });

  it('drops a messages frame with a message outside the contract whole, and one for another channel goes elsewhere', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = newClient();
    const messages: RealtimeMessage[] = [];
    client.subscribe('stream:1', (m) => messages.push(m));
    const socket = latest();
    socket.open();
    socket.receive({ op: 'messages', channel: 'stream:1', messages: [sampleComment('ok'), { type: 'TIP', text: 'no sender' }] });
    socket.receive({ op: 'messages', channel: 'stream:2', messages: [sampleComment('x'), sampleComment('y')] });
    expect(messages).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });

  it('drops malformed frames and keeps delivering the good ones', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const client = newClient();
    const messages: RealtimeMessage[] = [];
    client.subscribe('stream:1', (m) => messages.push(m));
    const socket = latest();
    socket.open();
    socket.receive({ op: 'message', channel: 'stream:1', message: { type: 'TIP', text: 'Ann tipped 500' } });
    socket.onmessage?.({ data: '{"op":' });
    socket.receive({ op: 'message', channel: 'stream:1', message: SAMPLE_OF_EACH_TYPE['STREAM-END'] });
    expect(messages).toEqual([{ type: 'STREAM-END' }]);
    expect(client.status).toBe('open');
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('resolves a send on its ack and rejects it with the error frame', async () => {
    const client = newClient();
    client.subscribe('stream:1', () => undefined);
    const socket = latest();
    socket.open();
    const ok = client.send('stream:1', { type: 'COMMENT', text: 'hi' });
    const refused = client.send('stream:1', { type: 'LIKE', likes: 1 });
    const [first, second] = socket.sent.filter((f) => f.op === 'send');
    expect(first).toEqual({ op: 'send', channel: 'stream:1', id: 't-1', type: 'COMMENT', text: 'hi' });
    expect(second?.id).toBe('t-2');
    socket.receive({ op: 'ack', id: 't-1' });
    socket.receive({ op: 'error', channel: 'stream:1', id: 't-2', code: 'like_limit', message: 'You have reached the Like limit' });
    await expect(ok).resolves.toBeUndefined();
    await expect(refused).rejects.toMatchObject({ code: 'like_limit', message: 'You have reached the Like limit' });
  });

  it('rejects sends while offline and those in flight when the socket drops', async () => {
    const client = newClient();
    client.subscribe('stream:1', () => undefined);
    await expect(client.send('stream:1', { type: 'LIKE', likes: 1 })).rejects.toBeInstanceOf(RealtimeError);
    latest().open();
    const inFlight = client.send('stream:1', { type: 'LIKE', likes: 1 });
    latest().drop();
    await expect(inFlight).rejects.toMatchObject({ code: 'offline' });
  });

  it('reports a refused subscription to its subscriber', () => {
    const client = newClient();
    const errors: string[] = [];
    client.subscribe('stream:1', { onMessage: () => undefined, onError: (e) => errors.push(e.code) });
    latest().open();
    latest().receive({ op: 'error', channel: 'stream:1', code: 'block', message: 'blocked' });
    expect(errors).toEqual(['block']);
  });

  it('reconnects with backoff, resubscribes everything and resets the backoff after a good connection', () => {
    const client = newClient();
    const statuses: string[] = [];
    client.onStatus((s) => statuses.push(s));
    client.subscribe('stream:1', () => undefined);
    client.subscribe('stream:1:priority', () => undefined);
    latest().open();
    latest().drop();
    expect(client.status).toBe('reconnecting');
    vi.advanceTimersByTime(999);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    latest().drop(); // never opened
    vi.advanceTimersByTime(1999);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);
    latest().open();
    expect(latest().sent).toEqual([
      { op: 'subscribe', channel: 'stream:1' },
      { op: 'subscribe', channel: 'stream:1:priority' },
    ]);
    vi.advanceTimersByTime(GOOD_CONNECTION_MS);
    latest().drop();
    vi.advanceTimersByTime(1000);
    expect(FakeSocket.all).toHaveLength(4);
    expect(statuses).toEqual(['connecting', 'open', 'reconnecting', 'open', 'reconnecting']);
  });

  it('comes back at once, jittered, when the server says it is restarting, and backs off as before on other closes', () => {
    const client = new RealtimeClient({ url: 'ws://test/ws', createSocket: (url) => new FakeSocket(url), random: () => 0.25 });
    client.subscribe('stream:1', () => undefined);
    latest().open();
    latest().drop(SERVER_RESTARTING.code);
    expect(client.status).toBe('reconnecting');
    vi.advanceTimersByTime(499);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    latest().drop(); // a plain failure: the backoff starts again at about 1 s
    vi.advanceTimersByTime(899);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);
  });

  it('resubscribes after the last chat line and tip it saw on each channel, not for the last lines', () => {
    const client = newClient();
    const replays: Array<{ skipped: boolean } | undefined> = [];
    client.subscribe('stream:1', { onMessage: () => undefined, onSubscribed: (_history, replay) => replays.push(replay) });
    client.subscribe('stream:2', () => undefined);
    latest().open();
    latest().receive({ op: 'subscribed', channel: 'stream:1', history: [sampleComment('old', '9'), sampleTip(5, '40')] });
    latest().receive({ op: 'subscribed', channel: 'stream:2', history: [] });
    latest().receive({ op: 'messages', channel: 'stream:1', messages: [sampleComment('a', '10'), sampleTip(7, '41'), sampleComment('b', '11')] });
    latest().receive({ op: 'message', channel: 'stream:1', message: SAMPLE_OF_EACH_TYPE.LIKE });
    latest().drop();
    vi.advanceTimersByTime(1000);
    latest().open();
    expect(latest().sent).toEqual([
      { op: 'subscribe', channel: 'stream:1', after: { comment: '11', tip: '41' } },
      { op: 'subscribe', channel: 'stream:2', after: { comment: '0', tip: '0' } },
    ]);
    latest().receive({ op: 'subscribed', channel: 'stream:1', history: [sampleComment('c', '100')], replay: { skipped: true } });
    expect(replays).toEqual([undefined, { skipped: true }]);
  });

  it('asks again, backing off with jitter, for a subscription the server could not answer, and tells the page only a refusal', () => {
    const jitters = [0.5, 0, 0.999, 0.5];
    const client = new RealtimeClient({ url: 'ws://test/ws', createSocket: (url) => new FakeSocket(url), random: () => jitters.shift() ?? 0.5 });
    const errors: string[] = [];
    const histories: HistoryMessage[][] = [];
    client.subscribe('stream:1', { onMessage: () => undefined, onSubscribed: (history) => histories.push(history), onError: (error) => errors.push(error.code) });
    const socket = latest();
    socket.open();
    const subscribes = () => socket.sent.filter((frame) => frame.op === 'subscribe').length;
    // The database is away: asked again after 1 s (the middle of ±20 %), then after 2 s at its shortest, then 4 s at its longest.
    socket.receive({ op: 'error', channel: 'stream:1', code: 'unavailable', message: 'The service is unavailable' });
    vi.advanceTimersByTime(999);
    expect(subscribes()).toBe(1);
    vi.advanceTimersByTime(1);
    expect(subscribes()).toBe(2);
    socket.receive({ op: 'error', channel: 'stream:1', code: 'internal', message: 'Something went wrong' });
    vi.advanceTimersByTime(1600);
    expect(subscribes()).toBe(3);
    socket.receive({ op: 'error', channel: 'stream:1', code: 'rate_limited', message: 'Too fast' });
    vi.advanceTimersByTime(4790);
    expect(subscribes()).toBe(3);
    vi.advanceTimersByTime(10);
    expect(subscribes()).toBe(4);
    expect(errors).toEqual([]);
    expect(client.status).toBe('open');
    socket.receive({ op: 'subscribed', channel: 'stream:1', history: [sampleComment('at last', '3')] });
    expect(histories).toHaveLength(1);
    // Back to the first delay after a success; a refusal is the page's to show, and not asked again.
    socket.receive({ op: 'error', channel: 'stream:1', code: 'unavailable', message: 'The service is unavailable' });
    vi.advanceTimersByTime(1000);
    expect(subscribes()).toBe(5);
    expect(socket.sent.at(-1)).toEqual({ op: 'subscribe', channel: 'stream:1', after: { comment: '3', tip: '0' } });
    socket.receive({ op: 'error', channel: 'stream:1', code: 'block', message: 'You are blocked' });
    vi.advanceTimersByTime(60_000);
    expect(subscribes()).toBe(5);
    expect(errors).toEqual(['block']);
  });

  it('forgets a pending subscription retry when the channel is left', () => {
    const client = newClient();
    const stop = client.subscribe('stream:1', () => undefined);
    client.subscribe('stream:2', () => undefined);
    const socket = latest();
    socket.open();
    socket.receive({ op: 'error', channel: 'stream:1', code: 'unavailable', message: 'The service is unavailable' });
    stop();
    vi.advanceTimersByTime(5000);
    expect(socket.sent.filter((frame) => frame.channel === 'stream:1').map((frame) => frame.op)).toEqual(['subscribe', 'unsubscribe']);
  });

  it('pings every 25 s and reconnects when nothing answers', () => {
    const client = newClient();
    client.subscribe('stream:1', () => undefined);
    const socket = latest();
    socket.open();
    vi.advanceTimersByTime(PING_INTERVAL_MS);
    expect(socket.ops()).toEqual(['subscribe', 'ping']);
    socket.receive({ op: 'pong' });
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expect(client.status).toBe('open');
    vi.advanceTimersByTime(PING_INTERVAL_MS - PONG_TIMEOUT_MS + PONG_TIMEOUT_MS);
    expect(client.status).toBe('reconnecting');
    expect(socket.readyState).toBe(3);
  });

  it('gives up the socket at once when the browser goes offline, and reconnects', () => {
    const client = newClient();
    client.subscribe('stream:1', () => undefined);
    const socket = latest();
    socket.open();
    client.networkLost();
    expect(socket.readyState).toBe(3);
    expect(client.status).toBe('reconnecting');
    client.retryNow();
    latest().open();
    expect(FakeSocket.all).toHaveLength(2);
    expect(latest().sent).toEqual([{ op: 'subscribe', channel: 'stream:1' }]);
    expect(client.status).toBe('open');
  });

  it('unsubscribes the last listener of a channel and closes when idle', () => {
    const client = newClient();
    const stopA = client.subscribe('stream:1', () => undefined);
    const stopB = client.subscribe('stream:1', () => undefined);
    const socket = latest();
    socket.open();
    stopA();
    expect(socket.ops()).toEqual(['subscribe']);
    stopB();
    expect(socket.sent[1]).toEqual({ op: 'unsubscribe', channel: 'stream:1' });
    vi.advanceTimersByTime(5000);
    expect(client.status).toBe('idle');
    expect(socket.readyState).toBe(3);
  });
});

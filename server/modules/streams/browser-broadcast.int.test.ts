/**
 * Going live from the browser, for real: MediaRecorder-like WebM (VP8/Opus, from ffmpeg) sent in chunks
 * over the broadcast socket goes live through the RTMP ingest and plays as HLS; who may send, what a
 * bad client gets, and closing the page ends the broadcast after the ingest's grace.
 */
import { execFileSync } from 'node:child_process';
import type WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_BROADCAST_CLOSE, BROWSER_BROADCAST_PATH, BROWSER_MEDIA_FRAME_MAX_BYTES } from '../../../common/browser-broadcast';
import { streamLookup } from '../../../common/api/streams';
import { MSG } from '../../../common/messages';
import { recordLikeABrowser, type RunningRecorder } from '../../testing/browser-recorder';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import { segmentPath } from '../../testing/hls';
import { openUpgrade, type UpgradeAnswer } from '../../testing/ws-upgrade';

let t: TestApp;
let baseUrl: string;
const recorders: RunningRecorder[] = [];
const sockets: WebSocket[] = [];
beforeAll(async () => {
  t = await startTestApp({ RTMP_GRACE_MS: '1500' });
  await t.app.services.media.start();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await Promise.all(recorders.map((r) => r.stop()));
  for (const socket of sockets) socket.terminate();
  await t.close();
});

const lookup = async (client: HttpSession, id: number) => (await client.call(streamLookup, { id })).stream;

/** A broadcaster whose stream is set up (or not), with their session. */
async function broadcaster(setUp = true) {
  const owner = await t.given.signedInUser();
  const own = (await owner.client.post('/api/streams/get-live-stream', {})).body.stream as { stream_id: number };
  if (setUp) await owner.client.post('/api/streams/update-stream-info', { id: own.stream_id, data: { title: 'From the browser', audience: 'PUBLIC', rating: 'G' } });
  return { client: owner.client, id: own.stream_id };
}

/** Opens the broadcast socket as `client` (anonymous without one): the socket, or the upgrade's refusal. */
async function openBroadcast(client: HttpSession | null, query: string, origin?: string): Promise<UpgradeAnswer> {
  const answer = await openUpgrade(`${baseUrl.replace(/^http/, 'ws')}${BROWSER_BROADCAST_PATH}${query}`, { cookie: client?.cookie('ll_session'), origin });
  if ('socket' in answer) sockets.push(answer.socket);
  return answer;
}

/** The broadcast socket, once the stream's previous one (if any) has closed on the server too. */
async function opened(client: HttpSession, id: number): Promise<WebSocket> {
  let refusal = '';
  for (const started = Date.now(); Date.now() - started < 5_000; await new Promise((r) => setTimeout(r, 100))) {
    const upgrade = await openBroadcast(client, `?id=${id}`);
    if ('socket' in upgrade) return upgrade.socket;
    refusal = `${upgrade.status} ${JSON.stringify(upgrade.body)}`;
    if (upgrade.status !== 409) break;
  }
  throw new Error(`refused: ${refusal}`);
}

const closeCodeOf = (socket: WebSocket) => new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

function sendRecording(socket: WebSocket): RunningRecorder {
  const recorder = recordLikeABrowser({ width: 640, height: 360, onFrame: (frame) => socket.readyState === socket.OPEN && socket.send(frame) });
  recorders.push(recorder);
  return recorder;
}

describe('going live from the browser', () => {
  it('goes live from WebM chunks, plays as HLS, and ends like an encoder when the page closes', { timeout: 120_000 }, async () => {
    const { client, id } = await broadcaster();
    await client.post('/api/streams/go-live', { id });
    const socket = await opened(client, id);
    const recorder = sendRecording(socket);
    const viewer = t.client();
    try {
      await expect.poll(async () => (await lookup(viewer, id)).live, { timeout: 40_000, interval: 250 }).toBe('Y');
      const join = await viewer.post('/api/streams/stream-join', { stream_id: id, isHls: true });
      expect(join.status).toBe(200);
      const hls = join.body.url as { hls: string; width: number; height: number };
      expect(hls).toMatchObject({ width: 640, height: 360 });
      const playlist = await viewer.request('GET', hls.hls);
      const segment = segmentPath(hls.hls, playlist.body);
      expect(segment).toBeDefined();
      const media = await viewer.request('GET', segment!);
      expect(media.status).toBe(200);
      expect(media.headers['content-type']).toBe('video/mp2t');
      // The ingest measures an H.264/AAC feed with a keyframe a second, whatever the browser recorded.
      await expect.poll(async () => ((await client.get('/api/streams/ingest-health', { id })).body.ingest as { keyframe_interval: number | null } | null)?.keyframe_interval ?? null,
        { timeout: 30_000, interval: 500 }).not.toBeNull();
      const health = (await client.get('/api/streams/ingest-health', { id })).body.ingest as Record<string, unknown>;
      expect(health).toMatchObject({ state: 'live', video_codec: 'H.264', audio_codec: 'AAC', keyframe_interval: 1, warnings: [] });

      // A second browser session for the same stream is refused while the first sends.
      const second = await openBroadcast(client, `?id=${id}`);
      expect(second).toMatchObject({ status: 409, body: { response: 'conflict', message: MSG.browserBroadcastAlreadyOn } });
    } finally {
      await recorder.stop();
    }
    socket.close(1000);
    // The page closed: the relay's ffmpeg ends, the ingest waits out its grace (1.5 s here), then the broadcast ends as a replay.
    await expect.poll(async () => (await lookup(viewer, id)).ended, { timeout: 30_000, interval: 250 }).toBe(true);
    expect(await lookup(viewer, id)).toMatchObject({ live: 'N', playable: true });
    expect(relays()).toBe(0);
  });

  it('tells the page the broadcast ended when the owner presses End Stream while it sends', { timeout: 120_000 }, async () => {
    const { client, id } = await broadcaster();
    await client.post('/api/streams/go-live', { id });
    const socket = await opened(client, id);
    const closed = closeCodeOf(socket);
    const recorder = sendRecording(socket);
    try {
      await expect.poll(async () => (await lookup(client, id)).live, { timeout: 40_000, interval: 250 }).toBe('Y');
      expect((await client.post('/api/streams/end-stream', { id })).status).toBe(200);
      expect(await closed).toBe(BROWSER_BROADCAST_CLOSE.streamEnded);
    } finally {
      await recorder.stop();
    }
    await expect.poll(() => relays(), { timeout: 10_000 }).toBe(0);
  });

  it('refuses anyone but the owner of a set-up stream before the upgrade, and a page of another site', async () => {
    const { client, id } = await broadcaster();
    expect(await openBroadcast(null, `?id=${id}`)).toMatchObject({ status: 401, body: { response: 'unauthorized' } });
    const other = await t.given.signedInUser();
    expect(await openBroadcast(other.client, `?id=${id}`)).toMatchObject({ status: 404, body: { response: 'not_found', message: MSG.streamNotAvailable } });
    const admin = await t.given.signedInUser({ role: 'admin' });
    expect(await openBroadcast(admin.client, `?id=${id}`)).toMatchObject({ status: 404 });
    expect(await openBroadcast(client, '?id=x')).toMatchObject({ status: 400 });
    expect(await openBroadcast(client, '')).toMatchObject({ status: 400 });
    expect(await openBroadcast(client, `?id=${id}`, 'https://elsewhere.example')).toMatchObject({ status: 403, body: { message: MSG.liveConnectionRefused } });
    const notSetUp = await broadcaster(false);
    expect(await openBroadcast(notSetUp.client, `?id=${notSetUp.id}`)).toMatchObject({ status: 400, body: { message: MSG.updateBroadcastInfoFirst } });
  });

  it('closes a bad client\'s socket with a clear code and carries on: a text frame, a frame too large, bytes that are not media', { timeout: 60_000 }, async () => {
    const { client, id } = await broadcaster();
    const text = await opened(client, id);
    const textClosed = closeCodeOf(text);
    text.send('hello');
    expect(await textClosed).toBe(BROWSER_BROADCAST_CLOSE.binaryOnly);

    // Each next socket opens once the one before closed: the stream's one slot is free again.
    const big = await opened(client, id);
    const bigClosed = closeCodeOf(big);
    big.send(Buffer.alloc(BROWSER_MEDIA_FRAME_MAX_BYTES + 1));
    expect(await bigClosed).toBe(BROWSER_BROADCAST_CLOSE.tooLarge);

    const noise = await opened(client, id);
    const noiseClosed = closeCodeOf(noise);
    for (let i = 0; i < 64; i++) noise.send(Buffer.alloc(32 * 1024, i)); // past ffmpeg's probe size
    expect(await noiseClosed).toBe(BROWSER_BROADCAST_CLOSE.unreadable);
    // A page that opened the socket and went silent (its network gone) is let go.
    const silent = await opened(client, id);
    expect(await closeCodeOf(silent)).toBe(BROWSER_BROADCAST_CLOSE.idle);
    expect((await client.get('/api/user/session-detail')).status).toBe(200);
    await expect.poll(() => relays(), { timeout: 10_000 }).toBe(0);
  });
});

/** The relays' ffmpeg children still running (their command line reads from the pipe). */
function relays(): number {
  const out = execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('ffmpeg') && line.includes('pipe:0')).length;
}

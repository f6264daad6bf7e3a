/**
 * `npm run demo:live`: signs in as the demo broadcaster of a running server (solving its captcha the
 * way the login form does), saves a broadcast setup unless the broadcaster saved one (their title and
 * rating stay), goes live and pushes a generated test pattern over RTMP until Ctrl-C, then ends quietly.
 * Env: PORT (the server's, default 3000), or BASE_URL for a server elsewhere; DEMO_USER, DEMO_PASSWORD.
 */
import { shownTitle } from '../common/rules/stream-display';
import { DEMO_PASSWORD } from '../server/demo/demo-data';
import { resolveFfmpegPath } from '../server/platform/media/ffmpeg-path';
import { solvedCaptcha } from '../server/testing/captcha';
import { HttpSession } from '../server/testing/http-session';
import { publishTestPattern, rtmpPushUrl } from '../server/testing/rtmp-publisher';
import { ensureFfmpeg } from './system-tools';

const base = (process.env.BASE_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
const username = process.env.DEMO_USER ?? 'broadcaster1';
const password = process.env.DEMO_PASSWORD ?? DEMO_PASSWORD;

interface LiveStream {
  stream: { stream_id: number; rtmp_url: string; broadcast_key: string; ready: boolean; title: string };
}

/** Signs in as the login form does: with the captcha when the server asks for one, the strong proof when it answers proof_required. */
async function signIn(api: HttpSession): Promise<void> {
  const config = await api.get<{ captcha?: boolean }>('/api/meta/app-config');
  let altcha = config.body.captcha ? await solvedCaptcha(api) : undefined;
  for (let attempt = 0; attempt < 2; attempt++) {
    const res = await api.post<{ response?: string; message?: string }>('/api/user/user-login', { username, password, altcha });
    if (res.status === 200) return;
    if (res.body.response !== 'proof_required') throw new Error(`Could not sign in as ${username}: ${res.body.message ?? res.status}`);
    altcha = await solvedCaptcha(api, 'strong');
  }
  throw new Error(`Could not sign in as ${username}.`);
}

async function main() {
  const api = HttpSession.at(base);
  try {
    await api.get('/readyz');
  } catch {
    throw new Error(`No Limelight server answers at ${base}: start it with \`npm start\` (set PORT, or BASE_URL, to where it runs).`);
  }
  await signIn(api);
  const { stream } = await api.api<LiveStream>('/api/streams/get-live-stream', {});
  const id = stream.stream_id;
  // A setup the broadcaster saved (title, rating…) is theirs: only a stream never set up gets the demo's.
  if (!stream.ready) {
    await api.api('/api/streams/update-stream-info', { id, data: { title: 'Demo live: test pattern', description: 'A generated test pattern and tone from npm run demo:live.', audience: 'PUBLIC', rating: 'G' } });
  } else {
    console.log(`Keeping the saved broadcast setup ("${shownTitle(stream.title)}").`);
  }
  await api.api('/api/streams/go-live', { id });

  console.log(`Publishing a 720p test pattern to stream ${id} (Ctrl-C to stop).`);
  console.log(`Watch it at ${base}/streams/stream-view?id=${id}`);
  // ffmpeg in its own process group: Ctrl-C reaches this script alone, which stops ffmpeg as an encoder's Stop does.
  const publisher = publishTestPattern({ url: rtmpPushUrl(stream.rtmp_url, stream.broadcast_key), ffmpegPath: ensureFfmpeg() ?? resolveFfmpegPath(), ownProcessGroup: true });
  // Whatever ends this script ends ffmpeg too (it is in another process group).
  process.on('exit', () => void publisher.stop());
  let stopping = false;
  process.on('SIGINT', () => {
    stopping = true;
    void publisher.stop();
  });
  process.on('SIGTERM', () => {
    stopping = true;
    void publisher.stop();
  });
  const code = await publisher.exited;
  if (!stopping && code !== 0) {
    console.error(`ffmpeg stopped (exit ${code}):\n${publisher.tail()}`);
    process.exit(1);
  }
  console.log('Stopped: the stream ends after the grace window and stays as a replay.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

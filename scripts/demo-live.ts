/**
 * `npm run demo:live`: signs in as the demo broadcaster of a running server, saves the broadcast setup,
 * goes live and pushes a generated test pattern over RTMP until Ctrl-C.
 * Env: BASE_URL (default http://localhost:3000), DEMO_USER, DEMO_PASSWORD.
 */
import { publishTestPattern } from '../server/testing/rtmp-publisher';
import { HttpSession } from '../server/testing/http-session';

const base = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const username = process.env.DEMO_USER ?? 'broadcaster1';
const password = process.env.DEMO_PASSWORD ?? 'limelight-demo';

interface LiveStream {
  stream: { stream_id: number; rtmp_url: string; broadcast_key: string };
}

async function main() {
  const api = await HttpSession.at(base).signIn(username, password);
  const { stream } = await api.api<LiveStream>('/api/streams/get-live-stream', {});
  const id = stream.stream_id;
  await api.api('/api/streams/update-stream-info', { id, data: { title: 'Demo live: test pattern', audience: 'PUBLIC', rating: 'G' } });
  await api.api('/api/streams/go-live', { id });

  const rtmp = stream.rtmp_url.replace(/\/$/, '');
  const url = rtmp.endsWith(`/${stream.broadcast_key}`) ? rtmp : `${rtmp}/${stream.broadcast_key}`;
  console.log(`Publishing a 720p test pattern to stream ${id} (Ctrl-C to stop).`);
  console.log(`Watch it at ${base}/streams/stream-view?id=${id}`);
  const publisher = publishTestPattern({ url });
  let stopping = false;
  process.on('SIGINT', () => {
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

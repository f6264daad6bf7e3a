/**
 * `npm run demo:live`: signs in as the demo broadcaster of a running server, saves the broadcast setup,
 * goes live and pushes a generated test pattern over RTMP until Ctrl-C.
 * Env: BASE_URL (default http://localhost:3000), DEMO_USER, DEMO_PASSWORD.
 */
import { publishTestPattern } from '../server/testing/rtmp-publisher';

const base = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const username = process.env.DEMO_USER ?? 'broadcaster1';
const password = process.env.DEMO_PASSWORD ?? 'limelight-demo';

/** A browser-like session: cookies plus the CSRF header on every call that changes state. */
function session() {
  const cookies = new Map<string, string>();
  let csrf = '';
  async function call<T>(path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'x-csrf-token': csrf });
    const res = await fetch(base + path, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const data = (await res.json().catch(() => ({}))) as T & { response?: string; message?: string };
    if (!res.ok || data.response !== 'success') throw new Error(`${path}: ${res.status} ${data.message ?? data.response ?? ''}`);
    return data;
  }
  return {
    call,
    async refreshCsrf() {
      csrf = (await call<{ token: string }>('/api/csrf-token')).token;
    },
  };
}

interface LiveStream {
  stream: { stream_id: number; rtmp_url: string; broadcast_key: string };
}

async function main() {
  const api = session();
  await api.refreshCsrf();
  await api.call('/api/user/user-login', { username, password });
  await api.refreshCsrf(); // the session rotated at login
  const { stream } = await api.call<LiveStream>('/api/streams/get-live-stream', {});
  const id = stream.stream_id;
  await api.call('/api/streams/update-stream-info', { id, data: { title: 'Demo live: test pattern', audience: 'PUBLIC', rating: 'G' } });
  await api.call('/api/streams/go-live', { id });

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

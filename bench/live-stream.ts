/**
 * A demo broadcaster on air for a benchmark: their stream set up, an RTMP test pattern published to it
 * until it is live, and the go-live call the dashboard makes, timed (one call after another, the web's
 * own kind of client).
 */
import type pg from 'pg';
import type { HttpSession } from '../server/testing/http-session';
import { publishTestPattern, rtmpPushUrl, type RunningPublisher } from '../server/testing/rtmp-publisher';
import { sleep } from './lib';

export interface OnAir {
  stream: { stream_id: number; rtmp_url: string; broadcast_key: string; user_id: number };
  publisher: RunningPublisher;
  /** The go-live call and how long it took, in ms. */
  goLive(): Promise<number>;
}

export async function setUpStream(star: HttpSession, title: string): Promise<OnAir['stream']> {
  const { stream } = await star.api<{ stream: OnAir['stream'] }>('/api/streams/get-live-stream', {});
  await star.api('/api/streams/update-stream-info', { id: stream.stream_id, data: { title, audience: 'PUBLIC', rating: 'G' } });
  return stream;
}

/** Publishes to the stream until the database says it is live (at most 30 s). */
export async function goOnAir(star: HttpSession, stream: OnAir['stream'], pool: pg.Pool): Promise<OnAir> {
  const publisher = publishTestPattern({ url: rtmpPushUrl(stream.rtmp_url, stream.broadcast_key), width: 320, height: 240, fps: 15 });
  for (const until = Date.now() + 30_000; ;) {
    const { rows } = await pool.query<{ n: string }>('select count(*) as n from streams where id = $1 and live', [stream.stream_id]);
    if (Number(rows[0]!.n) === 1) break;
    if (Date.now() > until) {
      await publisher.stop();
      throw new Error(`the stream did not go live: ${publisher.tail()}`);
    }
    await sleep(200);
  }
  return {
    stream,
    publisher,
    async goLive() {
      const t0 = performance.now();
      await star.api('/api/streams/go-live', { id: stream.stream_id });
      return performance.now() - t0;
    },
  };
}

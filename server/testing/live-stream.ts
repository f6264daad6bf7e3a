/** Puts a broadcaster's stream live by playing the ingest's part through the streams module's hooks. */
import type { TestApp, TestUser } from './harness';
import type { TestClient } from './test-client';

export interface LiveStream {
  user: TestUser;
  client: TestClient;
  streamId: number;
}

export async function goLive(t: TestApp, data: Record<string, unknown> = {}): Promise<LiveStream> {
  const user = await t.given.user();
  const client = await t.given.signedIn(user);
  const own = await client.post('/api/streams/get-live-stream', {});
  const stream = own.body.stream as { stream_id: number; broadcast_key: string };
  await client.post('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Chat show', audience: 'PUBLIC', rating: 'G', ...data } });
  await client.post('/api/streams/go-live', { id: stream.stream_id });
  const hooks = t.app.services.broadcastHooks;
  await hooks.startBroadcast(stream.broadcast_key);
  await hooks.onLive({ streamId: stream.stream_id, broadcastId: 'b1', playlistKey: `media/${stream.stream_id}/b1/index.m3u8`, width: 1280, height: 720 });
  return { user, client, streamId: stream.stream_id };
}

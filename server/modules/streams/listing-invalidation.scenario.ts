/**
 * What the cached listings must do wherever they are read (decision 0026), for one instance or several:
 * they are served from the cache (a write that bypasses the streams module is not seen), and a stream
 * that ends, changes its title or is hidden by a moderator leaves or changes every instance's listings
 * within a second. The instances are started with a long READ_CACHE_MS, so only invalidation can do it.
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { eventually } from '../../testing/eventually';
import type { TestApp } from '../../testing/harness';

interface Tile {
  stream_id: number;
  title: string;
}

export async function listingsFollowChanges(writer: TestApp, readers: TestApp[]): Promise<void> {
  const channels = (await readers[0]!.client().get('/api/channel/base-group')).body.channels as Array<{ id: number; name: string }>;
  const channelId = (name: string) => channels.find((c) => c.name === name)!.id;
  const list = async (reader: TestApp, channel: string) =>
    (await reader.client().get('/api/channel/list-channel-streams', { id: channelId(channel), offset: 0, limit: 50 })).body.streams as Tile[];
  const ids = (tiles: Tile[]) => tiles.map((tile) => tile.stream_id);
  /** Every reader's listing satisfies `done` within a second. */
  const everywhere = async (channel: string, done: (tiles: Tile[]) => boolean) => {
    for (const reader of readers) expect(done(await eventually(() => list(reader, channel), done, 1000))).toBe(true);
  };

  const ending = await writer.given.liveStream({ title: 'Cached ending' });
  const hiding = await writer.given.liveStream({ title: 'Cached hiding' });
  await everywhere('Live', (tiles) => ids(tiles).includes(ending.streamId) && ids(tiles).includes(hiding.streamId));
  await everywhere('Popular', (tiles) => ids(tiles).includes(hiding.streamId));

  // Served from the cache: a write behind the module's back is not seen while the entry lives. The streams going
  // live are events of the outbox: once every one is delivered (and has dropped the entries), the entries read
  // again stay until the next change.
  const undelivered = async () => Number((await writer.resources.database.db.execute<{ n: number }>(sql`select count(*)::int as n from event_outbox where delivered_at is null`)).rows[0]!.n);
  await eventually(undelivered, (n) => n === 0, 10_000);
  await everywhere('Live', (tiles) => ids(tiles).includes(ending.streamId));
  await writer.resources.database.db.execute(sql`update streams set title = 'Written behind' where id = ${ending.streamId}`);
  for (const reader of readers) expect((await list(reader, 'Live')).find((tile) => tile.stream_id === ending.streamId)?.title).toMatch(/^Cached ending/);

  // The owner's edit through the module drops the entries everywhere.
  await ending.client.post('/api/streams/update-stream-info', { id: ending.streamId, data: { title: 'Renamed' } });
  await everywhere('Live', (tiles) => tiles.some((tile) => tile.stream_id === ending.streamId && tile.title.startsWith('Renamed')));

  expect((await ending.client.post('/api/streams/end-stream', { id: ending.streamId })).status).toBe(200);
  await everywhere('Live', (tiles) => !ids(tiles).includes(ending.streamId));

  const moderator = await writer.given.signedIn(await writer.given.user({ perms: ['GRANT PERMISSION'] }));
  expect((await moderator.post('/api/streams/report-stream-action', { stream_ids: [hiding.streamId], event: 'SUSPEND_USER' })).status).toBe(200);
  await everywhere('Popular', (tiles) => !ids(tiles).includes(hiding.streamId));
  await everywhere('Live', (tiles) => !ids(tiles).includes(hiding.streamId));
}

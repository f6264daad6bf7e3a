import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../platform/bus/memory-bus';
import type { MediaServer } from '../../platform/media/media-server';
import { createMediaControl } from './media-control';

/** Records what the media instance was asked to do. */
function recordingMedia() {
  const calls: string[] = [];
  const media = {
    playbackUrl: (id: number, viewer: string, client: string, ttl: number) => `/media/hls/${id}/${viewer}${client}${ttl}/index.m3u8`,
    stopBroadcast: async (id: number) => void calls.push(`stop ${id}`),
    grabThumbnail: async (id: number) => (calls.push(`thumbnail ${id}`), true),
    ingestHealth: (id: number) => (id === 7 || id === 9 ? { state: 'live', reading: null } : null),
  } as unknown as MediaServer;
  return { media, calls };
}

describe('media control', () => {
  it('acts directly on the media instance', async () => {
    const { media, calls } = recordingMedia();
    const control = createMediaControl(() => media, createMemoryBus(), true);
    await control.stopBroadcast(7);
    expect(await control.grabThumbnail(7)).toBe(true);
    expect(calls).toEqual(['stop 7', 'thumbnail 7']);
    expect(await control.playbackUrl(7, 'user:1000001|limelight', 'session:s1')).toMatch(/^\/media\/hls\/7\/.+\/index\.m3u8$/);
  });

  it('asks the media instance over the bus from an API-only instance', async () => {
    const bus = createMemoryBus();
    const { media, calls } = recordingMedia();
    await createMediaControl(() => media, bus, true).listen();
    const apiOnly = createMediaControl(() => media, bus, false);
    await apiOnly.listen(); // an API-only instance does not act on commands itself
    await apiOnly.stopBroadcast(9);
    await apiOnly.grabThumbnail(9);
    await expect.poll(() => calls).toEqual(['stop 9', 'thumbnail 9']);
  });

  it('answers ingest health from the media instance that ingests the stream, over the bus', async () => {
    const bus = createMemoryBus();
    const { media } = recordingMedia();
    await createMediaControl(() => media, bus, true).listen();
    const apiOnly = createMediaControl(() => media, bus, false);
    expect(await apiOnly.ingestHealth(9)).toEqual({ state: 'live', reading: null });
    expect(await createMediaControl(() => media, bus, true).ingestHealth(7)).toEqual({ state: 'live', reading: null });
    // No media instance ingests stream 8: no answer, null after the wait.
    expect(await apiOnly.ingestHealth(8)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { addressExpiry, inFolderOf, renewIn } from './playback-address';

const expiry = 1_900_000_000;
const address = (token: string, file = 'index.m3u8') => `/media/hls/7/${token}/${file}`;
const first = `${expiry.toString(36)}.dXNlcjox.${'a'.repeat(43)}`;
const second = `${(expiry + 120).toString(36)}.dXNlcjox.${'b'.repeat(43)}`;

describe('playback addresses', () => {
  it('tell when their token expires', () => {
    expect(addressExpiry(address(first))).toBe(expiry * 1000);
    expect(addressExpiry('/media/posts/1/full.webp?token=x')).toBeNull();
  });

  it('move a playlist or a segment of the same stream into the renewed token folder, nothing else', () => {
    expect(inFolderOf(`https://site.example${address(first, 'seg_00001.abcdefghijklmnop.ts')}`, address(second)))
      .toBe(`https://site.example${address(second, 'seg_00001.abcdefghijklmnop.ts')}`);
    expect(inFolderOf(address(first), address(second))).toBe(address(second));
    expect(inFolderOf(`/media/hls/8/${first}/index.m3u8`, address(second))).toBe(`/media/hls/8/${first}/index.m3u8`);
    expect(inFolderOf('/api/streams/stream-join', address(second))).toBe('/api/streams/stream-join');
  });

  it('renew 20 s before expiry, never sooner than 5 s from now', () => {
    expect(renewIn(address(first), expiry * 1000 - 120_000)).toBe(100_000);
    expect(renewIn(address(first), expiry * 1000 - 10_000)).toBe(5_000);
    expect(renewIn('/elsewhere', 0)).toBeNull();
  });
});

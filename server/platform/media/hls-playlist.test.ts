import { describe, expect, it } from 'vitest';
import { liveWindow, parsePlaylist } from './hls-playlist';

const HEADER = '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-INDEPENDENT-SEGMENTS\n';
const segment = (n: number) => `#EXTINF:1.000000,\nseg_${String(n).padStart(5, '0')}.ts\n`;
/** Segments 0..count-1; a reconnect before `reconnectAt` writes a discontinuity. */
const playlist = (count: number, reconnectAt?: number) =>
  HEADER + Array.from({ length: count }, (_, n) => (n === reconnectAt ? '#EXT-X-DISCONTINUITY\n' : '') + segment(n)).join('');

describe('the live window of an open playlist', () => {
  it('serves a short playlist as it is', () => {
    expect(liveWindow(playlist(12), 12)).toBe(playlist(12));
  });

  it('serves the last segments of a long one, numbered on and sliding', () => {
    const served = liveWindow(playlist(100, 40), 12);
    expect(parsePlaylist(served).segments).toEqual(Array.from({ length: 12 }, (_, i) => `seg_${String(88 + i).padStart(5, '0')}.ts`));
    expect(served).toMatch(/^#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MEDIA-SEQUENCE:88\n#EXT-X-DISCONTINUITY-SEQUENCE:1\n#EXTINF/);
    expect(served).not.toContain('PLAYLIST-TYPE');
    expect(served).not.toContain('#EXT-X-DISCONTINUITY\n');
  });

  it('keeps a discontinuity inside the window with its segment', () => {
    const served = liveWindow(playlist(30, 25), 12);
    expect(served).toContain('#EXT-X-MEDIA-SEQUENCE:18\n');
    expect(served).not.toContain('DISCONTINUITY-SEQUENCE');
    expect(served).toContain('#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\nseg_00025.ts\n');
  });

  it('serves a closed playlist, the replay, whole', () => {
    const closed = `${playlist(100)}#EXT-X-ENDLIST\n`;
    expect(liveWindow(closed, 12)).toBe(closed);
  });
});

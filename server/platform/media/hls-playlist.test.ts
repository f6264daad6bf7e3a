import { describe, expect, it } from 'vitest';
import { cutsFrom, playedOffset, recordedOffset, withoutPeriods } from './hls-playlist';

const at = (second: number) => Date.parse('2026-11-30T12:00:00.000Z') + second * 1000;
const entry = (n: number) => `#EXTINF:1.000000,\n#EXT-X-PROGRAM-DATE-TIME:2026-11-30T12:00:0${n}.000+0000\nseg_0000${n}.abcdefghijklmnop.ts`;
const playlist = (ended: boolean) =>
  ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-TARGETDURATION:1', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:EVENT', entry(0), entry(1), entry(2), entry(3), ...(ended ? ['#EXT-X-ENDLIST'] : []), ''].join('\n');
const segments = (text: string) => text.split('\n').filter((line) => line && !line.startsWith('#'));

describe('a playlist without a show’s minutes', () => {
  it('leaves a replay without the segments recorded then, the next one a discontinuity', () => {
    const cut = withoutPeriods(playlist(true), [{ from: at(1.2), to: at(2.5) }]);
    expect(segments(cut)).toEqual(['seg_00000.abcdefghijklmnop.ts', 'seg_00003.abcdefghijklmnop.ts']);
    expect(cut).toMatch(/#EXT-X-DISCONTINUITY\n#EXTINF:1.000000,\n#EXT-X-PROGRAM-DATE-TIME:2026-11-30T12:00:03/);
    expect(cut).toMatch(/#EXT-X-ENDLIST\n$/);
  });

  it('keeps a live playlist’s places, as gaps whose sealed names are not given', () => {
    const cut = withoutPeriods(playlist(false), [{ from: at(1), to: at(2) }]);
    expect(segments(cut)).toEqual(['seg_00000.abcdefghijklmnop.ts', 'seg_00001.ts', 'seg_00002.abcdefghijklmnop.ts', 'seg_00003.abcdefghijklmnop.ts']);
    expect(cut).toContain('#EXT-X-GAP\nseg_00001.ts');
  });

  it('changes nothing without periods, or a playlist without program date-times', () => {
    expect(withoutPeriods(playlist(true), [])).toBe(playlist(true));
    const plain = playlist(true).replace(/#EXT-X-PROGRAM-DATE-TIME:.*\n/g, '');
    expect(withoutPeriods(plain, [{ from: at(0), to: at(9) }])).toBe(plain);
  });
});

describe('a replay’s time once a show’s minutes are cut', () => {
  const cuts = [{ from: 10_000, to: 70_000 }, { from: 100_000, to: 130_000 }];
  it('moves a moment back by the cuts before it, and one inside a cut to where it was', () => {
    expect(playedOffset(5_000, cuts)).toBe(5_000);
    expect(playedOffset(40_000, cuts)).toBe(10_000);
    expect(playedOffset(80_000, cuts)).toBe(20_000);
    expect(playedOffset(140_000, cuts)).toBe(50_000);
  });

  it('maps a replay’s moment back to the first moment recorded there', () => {
    expect(recordedOffset(5_000, cuts)).toBe(5_000);
    expect(recordedOffset(10_000, cuts)).toBe(10_000);
    expect(recordedOffset(20_000, cuts)).toBe(80_000);
    expect(recordedOffset(50_000, cuts)).toBe(140_000);
    for (const at of [0, 9_999, 71_000, 99_000, 131_000, 200_000]) expect(recordedOffset(playedOffset(at, cuts), cuts)).toBe(at);
  });

  it('reads wall-clock periods as offsets into the broadcast', () => {
    expect(cutsFrom(1_000, [{ from: 50_000, to: 60_000 }, { from: 0, to: 2_000 }])).toEqual([{ from: 0, to: 1_000 }, { from: 49_000, to: 59_000 }]);
  });
});

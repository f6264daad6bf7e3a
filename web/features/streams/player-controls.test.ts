import { describe, expect, it } from 'vitest';
import { atLiveEdge, qualityOptions } from './player-controls';

describe('the player’s quality menu', () => {
  it('offers no menu for one rendition', () => {
    expect(qualityOptions([{ height: 720, bitrate: 2_500_000 }])).toEqual([]);
    expect(qualityOptions([{ height: 720, bitrate: 2_500_000 }, { height: 720, bitrate: 1_500_000 }])).toEqual([]);
  });

  it('lists Auto then each height, highest first, with the best level of each height', () => {
    const levels = [
      { height: 360, bitrate: 800_000 },
      { height: 1080, bitrate: 5_000_000 },
      { height: 720, bitrate: 1_500_000 },
      { height: 720, bitrate: 2_500_000 },
    ];
    expect(qualityOptions(levels)).toEqual([
      { level: -1, label: 'Auto' },
      { level: 1, label: '1080p' },
      { level: 3, label: '720p' },
      { level: 0, label: '360p' },
    ]);
  });
});

describe('the live edge', () => {
  it('is where playback is unless it fell behind or paused', () => {
    expect(atLiveEdge(100, 102, false)).toBe(true);
    expect(atLiveEdge(80, 102, false)).toBe(false);
    expect(atLiveEdge(101, 102, true)).toBe(false);
    expect(atLiveEdge(5, null, false)).toBe(true);
  });
});

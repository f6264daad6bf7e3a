import { describe, expect, it } from 'vitest';
import { resolveFfmpegPath } from './ffmpeg-path';

describe('resolveFfmpegPath', () => {
  it('prefers FFMPEG_PATH, then a binary that exists', () => {
    expect(resolveFfmpegPath({ FFMPEG_PATH: '/opt/ffmpeg' })).toBe('/opt/ffmpeg');
    expect(resolveFfmpegPath({})).toMatch(/ffmpeg$/);
  });
});

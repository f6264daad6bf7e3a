import { describe, expect, it } from 'vitest';
import { fileType, formatBytes, isImageFile, isVideoFile } from './files';

describe('chosen files', () => {
  it('knows videos by their extension and names their type', () => {
    expect(isVideoFile({ name: 'clip.MOV' })).toBe(true);
    expect(isVideoFile({ name: 'clip.mp4' })).toBe(true);
    expect(isVideoFile({ name: 'clip.avi' })).toBe(false);
    expect(fileType({ name: 'a.mov', type: '' })).toBe('video/quicktime');
    expect(fileType({ name: 'a.jpg', type: 'image/jpeg' })).toBe('image/jpeg');
  });

  it('knows images by their type', () => {
    expect(isImageFile({ type: 'image/png' })).toBe(true);
    expect(isImageFile({ type: 'video/mp4' })).toBe(false);
  });

  it('reads sizes', () => {
    expect(formatBytes(820_000)).toBe('820 KB');
    expect(formatBytes(14_200_000)).toBe('14.2 MB');
    expect(formatBytes(2_000_000_000)).toBe('2 GB');
  });
});

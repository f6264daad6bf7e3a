import { describe, expect, it } from 'vitest';
import { activeSection } from './nav-active';

describe('activeSection', () => {
  it('groups channel pages under Browse, the upload path under Create Post, calls under Video Call and conversations under Messages', () => {
    expect(activeSection('/channel/group', '/user/upload')).toBe('browse');
    expect(activeSection('/channel/custom', '/user/upload')).toBe('browse');
    expect(activeSection('/channel/channel', '/user/upload')).toBe('browse');
    expect(activeSection('/user/upload-video', '/user/upload-video')).toBe('create-post');
    expect(activeSection('/user/upload-video', '/user/upload')).toBe(null);
    expect(activeSection('/streams/meeting-view', '/user/upload')).toBe('video-call');
    expect(activeSection('/user/create-meeting', '/user/upload')).toBe('video-call');
    expect(activeSection('/channel/search', '/user/upload')).toBe(null);
    expect(activeSection('/ads/offers', '/user/upload')).toBe('offers');
    expect(activeSection('/messages', '/user/upload')).toBe('messages');
  });
});

import { describe, expect, it } from 'vitest';
import { decodePeerMedia, encodePeerMedia, samePeerMedia } from './peer-media';

describe('a participant’s word on their microphone and camera', () => {
  it('goes out and comes back unchanged', () => {
    for (const media of [{ audio: true, video: true }, { audio: false, video: true }, { audio: true, video: false }, { audio: false, video: false }]) {
      expect(decodePeerMedia(encodePeerMedia(media))).toEqual(media);
    }
  });
  it('ignores anything that is not such a message', () => {
    for (const data of ['', 'not json', 'null', '[]', '{"audio":true}', '{"audio":"no","video":true}', new ArrayBuffer(4), `{"audio":true,"video":true,"pad":"${'x'.repeat(300)}"}`]) {
      expect(decodePeerMedia(data)).toBeNull();
    }
  });
  it('tells a change from a repeat', () => {
    expect(samePeerMedia({ audio: true, video: false }, { audio: true, video: false })).toBe(true);
    expect(samePeerMedia({ audio: true, video: false }, { audio: false, video: false })).toBe(false);
  });
});

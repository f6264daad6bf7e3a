import { describe, expect, it } from 'vitest';
import { BROWSER_BROADCAST_TEXT, BROWSER_MEDIA_FRAME_MAX_BYTES } from '../../../common/browser-broadcast';
import { broadcastSocketUrl, captureFailureText, deviceOptions, framesOfChunk, recordingType } from './browser-capture';

describe('the broadcaster panel\'s choices', () => {
  it('records VP8 where the browser can, MP4 where only that is offered, nothing without MediaRecorder', () => {
    expect(recordingType(() => true)).toBe('video/webm;codecs=vp8,opus');
    expect(recordingType((type) => type === 'video/mp4')).toBe('video/mp4');
    expect(recordingType(() => false)).toBeNull();
    expect(recordingType(undefined)).toBeNull();
  });

  it('says why the camera could not start', () => {
    expect(captureFailureText({ name: 'NotAllowedError' })).toBe(BROWSER_BROADCAST_TEXT.permissionDenied);
    expect(captureFailureText({ name: 'NotFoundError' })).toBe(BROWSER_BROADCAST_TEXT.noDevices);
    expect(captureFailureText(new Error('device busy'))).toBe(BROWSER_BROADCAST_TEXT.captureFailed.replace('{reason}', 'device busy'));
  });

  it('offers each camera and microphone by its label, numbered when the browser hides it', () => {
    const options = deviceOptions([
      { deviceId: 'c1', kind: 'videoinput', label: 'Front camera' },
      { deviceId: 'c2', kind: 'videoinput', label: '' },
      { deviceId: 'm1', kind: 'audioinput', label: 'Headset' },
      { deviceId: 'o1', kind: 'audiooutput', label: 'Speakers' },
      { deviceId: '', kind: 'audioinput', label: '' },
    ]);
    expect(options.cameras).toEqual([{ value: 'c1', label: 'Front camera' }, { value: 'c2', label: 'Camera 2' }]);
    expect(options.microphones).toEqual([{ value: 'm1', label: 'Headset' }]);
  });

  it('addresses the socket on this host with the skin, and cuts chunks to the frame limit', () => {
    expect(broadcastSocketUrl({ protocol: 'https:', host: 'example.com' }, 7, 'miitv')).toBe('wss://example.com/api/streams/broadcast-from-browser?id=7&service=miitv');
    const frames = framesOfChunk(new ArrayBuffer(BROWSER_MEDIA_FRAME_MAX_BYTES * 2 + 5));
    expect(frames.map((f) => f.byteLength)).toEqual([BROWSER_MEDIA_FRAME_MAX_BYTES, BROWSER_MEDIA_FRAME_MAX_BYTES, 5]);
  });
});

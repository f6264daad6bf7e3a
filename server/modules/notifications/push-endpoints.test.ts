import { describe, expect, it } from 'vitest';
import { isAllowedPushEndpoint } from './push-endpoints';

const DEFAULTS = ['fcm.googleapis.com', '*.push.services.mozilla.com', '127.0.0.1:4100'];

describe('push endpoints', () => {
  it('allows the listed services over https', () => {
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com/fcm/send/abc', DEFAULTS)).toBe(true);
    expect(isAllowedPushEndpoint('https://updates.push.services.mozilla.com/wpush/v2/x', DEFAULTS)).toBe(true);
  });

  it('refuses other hosts, look-alikes, plain http, other ports and credentials', () => {
    expect(isAllowedPushEndpoint('https://evil.example/fcm.googleapis.com', DEFAULTS)).toBe(false);
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com.evil.example/x', DEFAULTS)).toBe(false);
    expect(isAllowedPushEndpoint('https://push.services.mozilla.com/x', DEFAULTS)).toBe(false);
    expect(isAllowedPushEndpoint('https://evilpush.services.mozilla.com/x', DEFAULTS)).toBe(false);
    expect(isAllowedPushEndpoint('http://fcm.googleapis.com/x', DEFAULTS)).toBe(false);
    expect(isAllowedPushEndpoint('https://fcm.googleapis.com:8443/x', DEFAULTS)).toBe(false);
    expect(isAllowedPushEndpoint('https://user:pw@fcm.googleapis.com/x', DEFAULTS)).toBe(false);
    expect(isAllowedPushEndpoint('http://127.0.0.1/x', DEFAULTS)).toBe(false);
    expect(isAllowedPushEndpoint('http://169.254.169.254/latest', DEFAULTS)).toBe(false);
    expect(isAllowedPushEndpoint('not a url', DEFAULTS)).toBe(false);
  });

  it('allows a listed local host:port over http', () => {
    expect(isAllowedPushEndpoint('http://127.0.0.1:4100/push/1', DEFAULTS)).toBe(true);
    expect(isAllowedPushEndpoint('http://127.0.0.1:4101/push/1', DEFAULTS)).toBe(false);
  });
});

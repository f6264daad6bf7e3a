/** Short-lived playback tokens bound to one stream: `<expiry seconds>.<HMAC-SHA256(streamId.expiry)>`, base64url. */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface PlaybackTokens {
  sign(streamId: number, ttlSeconds: number): string;
  verify(token: string | undefined, streamId: number): boolean;
}

const TOKEN = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

export function createPlaybackTokens(secret: string, now: () => number = Date.now): PlaybackTokens {
  const mac = (streamId: number, expiry: string) => createHmac('sha256', secret).update(`${streamId}.${expiry}`).digest();
  return {
    sign(streamId, ttlSeconds) {
      const expiry = Math.floor(now() / 1000 + ttlSeconds).toString(36);
      return `${expiry}.${mac(streamId, expiry).toString('base64url')}`;
    },
    verify(token, streamId) {
      const match = token ? TOKEN.exec(token) : null;
      if (!match) return false;
      const [, expiry = '', signature = ''] = match;
      if (Number.parseInt(expiry, 36) * 1000 < now()) return false;
      return timingSafeEqual(Buffer.from(signature, 'base64url'), mac(streamId, expiry));
    },
  };
}

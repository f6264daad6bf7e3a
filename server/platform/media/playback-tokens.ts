/**
 * Short-lived playback tokens bound to one stream and one viewer:
 * `<expiry, base 36>.<viewer, base64url>.<HMAC-SHA256(streamId.viewer.expiry), base64url>`. The viewer
 * is whatever the caller names (the streams module: its viewer key and skin); a copied address stays
 * that viewer's, and the caller checks it against who fetches.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface PlaybackTokens {
  sign(streamId: number, viewer: string, ttlSeconds: number): string;
  /** The viewer the token was signed for, or null when it is not valid for this stream now. */
  verify(token: string | undefined, streamId: number): string | null;
}

const TOKEN = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{1,120})\.([A-Za-z0-9_-]{43})$/;

export function createPlaybackTokens(secret: string, now: () => number = Date.now): PlaybackTokens {
  const mac = (streamId: number, viewer: string, expiry: string) =>
    createHmac('sha256', secret).update(`${streamId}.${viewer}.${expiry}`).digest();
  return {
    sign(streamId, viewer, ttlSeconds) {
      const expiry = Math.floor(now() / 1000 + ttlSeconds).toString(36);
      return `${expiry}.${Buffer.from(viewer).toString('base64url')}.${mac(streamId, viewer, expiry).toString('base64url')}`;
    },
    verify(token, streamId) {
      const match = token ? TOKEN.exec(token) : null;
      if (!match) return null;
      const [, expiry = '', encodedViewer = '', signature = ''] = match;
      if (Number.parseInt(expiry, 36) * 1000 < now()) return null;
      const viewer = Buffer.from(encodedViewer, 'base64url').toString();
      return timingSafeEqual(Buffer.from(signature, 'base64url'), mac(streamId, viewer, expiry)) ? viewer : null;
    },
  };
}

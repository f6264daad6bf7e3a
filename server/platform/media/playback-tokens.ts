/**
 * Short-lived playback tokens bound to one stream, one viewer and one client:
 * `<expiry, base 36>.<viewer, base64url>.<HMAC-SHA256(streamId.expiry.client.viewer), base64url>`. The
 * viewer is whatever the caller names (the streams module: its viewer key and skin) and travels in the
 * token; the client (the streams module: the session, or a guest's browser cookie) is only in the
 * signature, so the address never carries it and a copy fetched by another client fails the check.
 * Segment names are sealed too (`seal`): a playlist lists `seg_00042.<tag>.ts`, whose tag only the
 * server can make, so one token does not open every segment by counting.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface PlaybackTokens {
  sign(streamId: number, viewer: string, ttlSeconds: number, client?: string): string;
  /** The viewer the token was signed for, or null when it is not valid for this stream and client now. */
  verify(token: string | undefined, streamId: number, client?: string): string | null;
  /** An unguessable tag of a stored file's key, the same for every viewer (a shared cache keys on it). */
  seal(key: string): string;
}

const TOKEN = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{1,120})\.([A-Za-z0-9_-]{43})$/;
/** 96 bits: guessing a tag is as hopeless as guessing a token. */
export const SEAL_LENGTH = 16;

export function createPlaybackTokens(secret: string, now: () => number = Date.now): PlaybackTokens {
  // The viewer comes last: stream id, expiry and the encoded client hold no dot, so no two inputs read alike.
  const mac = (streamId: number, viewer: string, expiry: string, client: string) =>
    createHmac('sha256', secret).update(`${streamId}.${expiry}.${Buffer.from(client).toString('base64url')}.${viewer}`).digest();
  return {
    sign(streamId, viewer, ttlSeconds, client = '') {
      const expiry = Math.floor(now() / 1000 + ttlSeconds).toString(36);
      return `${expiry}.${Buffer.from(viewer).toString('base64url')}.${mac(streamId, viewer, expiry, client).toString('base64url')}`;
    },
    verify(token, streamId, client = '') {
      const match = token ? TOKEN.exec(token) : null;
      if (!match) return null;
      const [, expiry = '', encodedViewer = '', signature = ''] = match;
      if (Number.parseInt(expiry, 36) * 1000 < now()) return null;
      const viewer = Buffer.from(encodedViewer, 'base64url').toString();
      return timingSafeEqual(Buffer.from(signature, 'base64url'), mac(streamId, viewer, expiry, client)) ? viewer : null;
    },
    seal(key) {
      return createHmac('sha256', secret).update(`seal.${key}`).digest('base64url').slice(0, SEAL_LENGTH);
    },
  };
}

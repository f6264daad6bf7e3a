/**
 * The token a participant opens a Jitsi Meet room with (CONFERENCE=jitsi): Jitsi's token authentication
 * (prosody mod_auth_token, shared-secret validation) takes an HS256 JWT whose `iss` is the app id, `aud`
 * the audience Prosody accepts ('jitsi'), `sub` the conference domain and `room` the room name;
 * `context.user` names the participant, and `moderator` 'true' makes the host the room's moderator.
 * Written with node:crypto: the format is three base64url parts and one HMAC.
 */
import { createHmac } from 'node:crypto';

export interface JitsiTokenInput {
  appId: string;
  appSecret: string;
  domain: string;
  room: string;
  user: { id: number; name: string; avatar: string | null; email: string };
  moderator: boolean;
  /** The token is valid from `notBefore` until `expiresAt`. */
  notBefore: Date;
  expiresAt: Date;
  now: Date;
}

/** Tokens are accepted this long before the meeting starts and after it was due to end. */
export const JITSI_TOKEN_MARGIN_MS = 60 * 60_000;

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);
const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A Jitsi room name that outsiders cannot list: stable per meeting (every participant meets in the same room). */
export const jitsiRoomOf = (meetingId: number, appSecret: string) =>
  `limelight-meeting-${meetingId}-${createHmac('sha256', appSecret).update(`room:${meetingId}`).digest('hex').slice(0, 16)}`;

export function jitsiToken(input: JitsiTokenInput): string {
  const header = { alg: 'HS256', typ: 'JWT' };
  const claims = {
    aud: 'jitsi',
    iss: input.appId,
    sub: input.domain,
    room: input.room,
    iat: seconds(input.now),
    nbf: seconds(input.notBefore),
    exp: seconds(input.expiresAt),
    // Newer Prosody modules read a top-level flag; the context's string is the documented one.
    moderator: input.moderator,
    context: {
      user: {
        id: String(input.user.id),
        name: input.user.name,
        avatar: input.user.avatar,
        email: input.user.email,
        moderator: input.moderator ? 'true' : 'false',
      },
    },
  };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = createHmac('sha256', input.appSecret).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { jitsiRoomOf, jitsiToken } from './jitsi-token';

const secret = 'a-shared-secret-of-the-prosody-host';
const input = {
  appId: 'limelight',
  appSecret: secret,
  domain: 'meet.example.com',
  room: jitsiRoomOf(42, secret),
  user: { id: 7, name: 'Host Person', avatar: 'https://cdn.example/a.png', email: 'host@example.com' },
  moderator: true,
  notBefore: new Date('2030-01-01T09:00:00Z'),
  expiresAt: new Date('2030-01-01T11:30:00Z'),
  now: new Date('2030-01-01T08:59:30Z'),
};

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('the Jitsi token', () => {
  it('is an HS256 JWT signed with the app secret', () => {
    const token = jitsiToken(input);
    const [header, payload, signature] = token.split('.');
    expect(decode(header!)).toEqual({ alg: 'HS256', typ: 'JWT' });
    // An independent HMAC over the first two parts, as Prosody verifies it.
    const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest().toString('base64')
      .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(signature).toBe(expected);
    expect(createHmac('sha256', 'another-secret').update(`${header}.${payload}`).digest('base64url')).not.toBe(signature);
  });

  it("carries the app, the domain, the room, the times and the host's moderator right", () => {
    const claims = decode(jitsiToken(input).split('.')[1]!);
    expect(claims).toEqual({
      aud: 'jitsi',
      iss: 'limelight',
      sub: 'meet.example.com',
      room: input.room,
      iat: Date.parse('2030-01-01T08:59:30Z') / 1000,
      nbf: Date.parse('2030-01-01T09:00:00Z') / 1000,
      exp: Date.parse('2030-01-01T11:30:00Z') / 1000,
      moderator: true,
      context: { user: { id: '7', name: 'Host Person', avatar: 'https://cdn.example/a.png', email: 'host@example.com', moderator: 'true' } },
    });
    const guest = decode(jitsiToken({ ...input, moderator: false }).split('.')[1]!);
    expect(guest.moderator).toBe(false);
    expect((guest.context as { user: { moderator: string } }).user.moderator).toBe('false');
  });

  it('names one room per meeting that does not reveal the next one', () => {
    expect(jitsiRoomOf(42, secret)).toBe(jitsiRoomOf(42, secret));
    expect(jitsiRoomOf(42, secret)).toMatch(/^limelight-meeting-42-[0-9a-f]{16}$/);
    expect(jitsiRoomOf(43, secret).slice(-16)).not.toBe(jitsiRoomOf(42, secret).slice(-16));
  });
});

import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../testing/harness';

const SECRET = 'the-jitsi-app-secret-for-tests';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ CONFERENCE: 'jitsi', CONFERENCE_DOMAIN: 'meet.example.com', JITSI_APP_ID: 'limelight', JITSI_APP_SECRET: SECRET });
});
afterAll(async () => t?.close());

const claimsOf = (jwt: string) => {
  const [header, payload, signature] = jwt.split('.');
  expect(signature).toBe(createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url'));
  return JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown> & { context: { user: Record<string, unknown> } };
};

it('gives each participant a token for the same Jitsi room, the host as its moderator', async () => {
  const host = await t.given.signedInUser();
  const fan = await t.given.follower(host.user);
  const created = await host.client.post('/api/user/create-meeting', {
    audience_ids: String(fan.user.id), title: 'Jitsi call', start_time: new Date(Date.now() + 600_000).toISOString(),
  });
  const id = (created.body.data as { meeting_id: number }).meeting_id;
  type Room = { conference: { kind: string; domain: string; room: string; jwt: string } };
  const hosting = ((await host.client.post('/api/user/join-meeting', { id })).body.data as Room).conference;
  const joining = ((await fan.client.post('/api/user/join-meeting', { id })).body.data as Room).conference;
  expect(hosting).toMatchObject({ kind: 'jitsi', domain: 'meet.example.com' });
  expect(hosting.room).toMatch(new RegExp(`^limelight-meeting-${id}-[0-9a-f]{16}$`));
  expect(joining.room).toBe(hosting.room);

  const hostClaims = claimsOf(hosting.jwt);
  expect(hostClaims).toMatchObject({ aud: 'jitsi', iss: 'limelight', sub: 'meet.example.com', room: hosting.room, moderator: true });
  expect(hostClaims.context.user).toMatchObject({ id: String(host.user.id), email: host.user.email, moderator: 'true' });
  const now = Date.now() / 1000;
  expect(hostClaims.nbf as number).toBeLessThanOrEqual(now);
  expect(hostClaims.exp as number).toBeGreaterThan(now + 600 + 30 * 60);
  expect(hostClaims.exp as number).toBeLessThan(now + 600 + 30 * 60 + 2 * 3600);
  const fanClaims = claimsOf(joining.jwt);
  expect(fanClaims).toMatchObject({ moderator: false, context: { user: { id: String(fan.user.id), moderator: 'false' } } });
});

it("lets the room's page load the Jitsi server's external API and frame, and no other outside script", async () => {
  const res = await t.client().get('/streams/meeting-view', { id: 1 });
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval' https://meet.example.com;");
  expect(csp).toContain('frame-src https://meet.example.com;');
});

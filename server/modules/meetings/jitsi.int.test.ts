import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { coinChanges, coinHoldings } from '../../testing/coin-holdings';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';

const SECRET = 'the-jitsi-app-secret-for-tests';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ CONFERENCE: 'jitsi', CONFERENCE_DOMAIN: 'meet.example.com', JITSI_APP_ID: 'limelight', JITSI_APP_SECRET: SECRET });
});
afterAll(async () => t?.close());

const payMeeting = async (who: SignedInUser, id: number, amount: number) => {
  const paid = await who.client.request('POST', '/api/user/pay-meeting', { body: { id, amount }, headers: { 'idempotency-key': randomUUID() } });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return paid;
};

async function meetingOf(host: SignedInUser, guest: SignedInUser): Promise<number> {
  const created = await host.client.post('/api/user/create-meeting', {
    audience_ids: String(guest.user.id), title: 'Jitsi call', start_time: new Date(Date.now() + 600_000).toISOString(),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return (created.body.data as { meeting_id: number }).meeting_id;
}

const claimsOf = (jwt: string) => {
  const [header, payload, signature] = jwt.split('.');
  expect(signature).toBe(createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url'));
  return JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown> & { context: { user: Record<string, unknown> } };
};

it('gives each participant a token for the same Jitsi room, the host as its moderator', async () => {
  const host = await t.given.signedInUser();
  const fan = await t.given.follower(host.user);
  await t.given.coins(fan.user, 250);
  const id = await meetingOf(host, fan);
  type Room = { conference: { kind: string; domain: string; room: string; jwt: string } };
  await payMeeting(fan, id, 250);
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

it('gives a guest who has not paid the pay wall and no token; the token comes once the meeting tip is paid', async () => {
  const host = await t.given.signedInUser();
  const guest = await t.given.follower(host.user);
  await t.given.coins(guest.user, 1000);
  const id = await meetingOf(host, guest);
  expect((await host.client.post('/api/user/join-meeting', { id })).body.data).toMatchObject({ paid: true, conference: { kind: 'jitsi' } });

  const unpaid = await guest.client.post('/api/user/join-meeting', { id });
  expect(unpaid.status).toBe(200);
  expect(unpaid.body.data).toMatchObject({ paid: false, owed: 250, conference_kind: 'jitsi', conference: null });
  expect(JSON.stringify(unpaid.body)).not.toMatch(/jwt|eyJ/);

  // Part of the tip is not enough.
  const db = t.resources.database.db;
  const before = await coinHoldings(db);
  await payMeeting(guest, id, 100);
  expect((await guest.client.post('/api/user/join-meeting', { id })).body.data).toMatchObject({ paid: false, owed: 150, conference: null });
  await payMeeting(guest, id, 150);
  // The guest's 250 went to the host whole (video calls take no fee), and no coin was made.
  expect(coinChanges(before, await coinHoldings(db))).toEqual({ [String(guest.user.id)]: -250, [String(host.user.id)]: 250 });

  const paid = await guest.client.post('/api/user/join-meeting', { id });
  const conference = (paid.body.data as { paid: boolean; conference: { kind: string; jwt: string } }).conference;
  expect(paid.body.data).toMatchObject({ paid: true, owed: 0, conference: { kind: 'jitsi', domain: 'meet.example.com' } });
  expect(claimsOf(conference.jwt)).toMatchObject({ moderator: false, context: { user: { id: String(guest.user.id) } } });
});

it("lets the room's page load the Jitsi server's external API and frame, and no other outside script", async () => {
  const res = await t.client().get('/streams/meeting-view', { id: 1 });
  const csp = String(res.headers['content-security-policy']);
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval' https://meet.example.com;");
  expect(csp).toContain('frame-src https://meet.example.com;');
});

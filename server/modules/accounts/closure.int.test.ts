import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { eventually } from '../../testing/eventually';
import { startTestApp, type TestApp } from '../../testing/harness';
import type { HttpSession } from '../../testing/http-session';
import type { EventOutbox } from '../../platform/event-outbox';
import { WsClient } from '../../testing/ws-client';
import { ACCOUNT_CLOSED_CODE } from '../../platform/realtime/gateway';
import { createClosureService } from './closure-service';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await startTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

const sendTip = (client: HttpSession, streamId: number, amount: number, key: string) =>
  client.request('POST', '/api/streams/send-tip', { body: { stream_id: streamId, amount }, headers: { 'idempotency-key': key } });

const rows = async <T>(query: ReturnType<typeof sql>) => (await t.resources.database.db.execute(query)).rows as T[];

describe('change password', () => {
  it('needs the current password, keeps this session and ends the others', async () => {
    const user = await t.given.user();
    const here = await t.given.signedIn(user);
    const elsewhere = await t.given.signedIn(user);
    const wrong = await here.post('/api/user/change-password', { id: user.id, current_password: 'not-it', new_password: 'a-new-secret-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ field: 'current_password', message: MSG.currentPasswordWrong });
    const short = await here.post('/api/user/change-password', { id: user.id, current_password: user.password, new_password: 'short' });
    expect(short.body).toMatchObject({ field: 'new_password', message: MSG.passwordTooShort });
    const mismatch = await here.post('/api/user/change-password', { id: user.id, current_password: user.password, new_password: 'a-new-secret-1', confirm_password: 'other' });
    expect(mismatch.body).toMatchObject({ field: 'confirm_password', message: MSG.passwordsDoNotMatch });
    const same = await here.post('/api/user/change-password', { id: user.id, current_password: user.password, new_password: user.password });
    expect(same.body).toMatchObject({ field: 'new_password', message: MSG.newPasswordSame });

    const changed = await here.post('/api/user/change-password', { id: user.id, current_password: user.password, new_password: 'a-new-secret-1', confirm_password: 'a-new-secret-1' });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await here.get('/api/user/session-detail')).status).toBe(200);
    expect((await elsewhere.get('/api/user/session-detail')).status).toBe(401);
    expect((await t.client().post('/api/user/user-login', { username: user.username, password: user.password })).status).toBe(401);
    expect((await t.given.signedIn({ ...user, password: 'a-new-secret-1' })).cookie('ll_session')).toBeTruthy();
  });

  it('counts wrong current passwords as failed logins', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    for (let i = 0; i < LOGIN_THROTTLE.perAccount; i += 1) {
      expect((await client.post('/api/user/change-password', { id: user.id, current_password: `guess-${i}`, new_password: 'a-new-secret-1' })).status).toBe(400);
    }
    const limited = await client.post('/api/user/change-password', { id: user.id, current_password: user.password, new_password: 'a-new-secret-1' });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe(MSG.passwordTriesExceeded);
    // The login of the same account now asks for the strong proof of work.
    expect((await t.client().post('/api/user/user-login', { username: user.username, password: user.password })).body.response).toBe('proof_required');
  });

  it("refuses the anonymous and another user's account", async () => {
    const victim = await t.given.user();
    const attacker = await t.given.signedInUser();
    const body = { id: victim.id, current_password: victim.password, new_password: 'taken-over-1' };
    expect((await t.client().post('/api/user/change-password', body)).status).toBe(401);
    expect((await attacker.client.post('/api/user/change-password', body)).status).toBe(403);
    expect((await t.client().post('/api/user/user-login', { username: victim.username, password: victim.password })).status).toBe(200);
  });
});

describe('delete account', () => {
  it('archives the person, frees the name, ends sessions and sockets, and leaves the ledger alone', async () => {
    const star = await t.given.user();
    const live = await t.given.liveStream({}, star);
    const fan = await t.given.signedInUser();
    await t.given.follower(star, fan);
    await t.given.coins(star, 500);
    await t.given.coins(fan.user, 100);
    const tip = await sendTip(fan.client, live.streamId, 20, 'closure-tip-1');
    expect(tip.status, JSON.stringify(tip.body)).toBe(200);
    const ledgerBefore = await rows<{ n: number }>(sql`select count(*)::int as n from ledger_transfers where from_user_id = ${star.id} or to_user_id = ${star.id}`);
    const entriesBefore = await rows<{ n: number }>(sql`select count(*)::int as n from ledger_entries`);
    const other = await t.given.signedIn(star);
    const socket = await WsClient.connect(baseUrl, other.cookie('ll_session'));
    const closed = new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));

    const noPassword = await live.client.post('/api/user/delete-account', { id: star.id });
    expect(noPassword.body).toMatchObject({ field: 'current_password', message: MSG.currentPasswordRequired });
    const wrong = await live.client.post('/api/user/delete-account', { id: star.id, current_password: 'nope' });
    expect(wrong.body).toMatchObject({ field: 'current_password', message: MSG.currentPasswordWrong });
    const deleted = await live.client.post('/api/user/delete-account', { id: star.id, current_password: star.password });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);

    expect(await closed).toBe(ACCOUNT_CLOSED_CODE);
    expect((await live.client.get('/api/user/session-detail')).status).toBe(401);
    expect((await other.get('/api/user/session-detail')).status).toBe(401);
    expect((await t.client().post('/api/user/user-login', { username: star.username, password: star.password })).status).toBe(401);

    const [archive] = await rows<{ username: string; email: string; purge_after: Date; deleted_at: Date }>(
      sql`select username, email, purge_after, deleted_at from account_archives where user_id = ${star.id}`);
    expect(archive).toMatchObject({ username: star.username, email: star.email });
    const months = (new Date(archive!.purge_after).getTime() - new Date(archive!.deleted_at).getTime()) / (24 * 3600_000);
    expect(months).toBeGreaterThanOrEqual(89);
    expect(months).toBeLessThanOrEqual(92);
    const [shell] = await rows<{ username: string; email: string; password_hash: string | null; account_status: string }>(
      sql`select username, email, password_hash, account_status from users where id = ${star.id}`);
    expect(shell).toEqual({ username: `deleted-${star.id}`, email: `deleted-${star.id}`, password_hash: null, account_status: 'deleted' });
    // The other modules' clean-up follows the deletion from the event outbox, at once.
    const leftOver = async () => [
      ...(await rows(sql`select 'follow' as what from follows where follower_id = ${star.id} or followee_id = ${star.id}`)),
      ...(await rows(sql`select 'stream' as what from streams where user_id = ${star.id} and not hidden`)),
    ];
    expect(await eventually(leftOver, (left) => left.length === 0)).toEqual([]);
    expect(await rows(sql`select 1 from sessions where user_id = ${star.id}`)).toHaveLength(0);

    // The books are untouched: the same transfers, the same entries, the balance still there.
    expect(await rows(sql`select count(*)::int as n from ledger_transfers where from_user_id = ${star.id} or to_user_id = ${star.id}`)).toEqual(ledgerBefore);
    expect(await rows(sql`select count(*)::int as n from ledger_entries`)).toEqual(entriesBefore);
    const fanBalance = await fan.client.get('/api/wallet/balance');
    expect(fanBalance.body.balance).toMatchObject({ CON: 80 });

    // The stream is gone for viewers, the profile too.
    expect((await fan.client.get('/api/streams/stream-lookup', { id: live.streamId })).status).toBeGreaterThanOrEqual(400);
    expect((await sendTip(fan.client, live.streamId, 5, 'closure-tip-2')).status).toBeGreaterThanOrEqual(400);

    // The username and email are free for a new sign-up.
    const newcomer = await t.client().post('/api/user/user-register', {
      username: star.username, email: star.email, password: 'brand-new-1', birthday: '05-05-1995', country: 'US', terms_accepted: true,
    });
    expect(newcomer.status, JSON.stringify(newcomer.body)).toBe(200);
    expect(newcomer.body.user_id).not.toBe(star.id);
  });

  it("refuses the anonymous and another user's account, and a social-only account needs a recent sign-in", async () => {
    const victim = await t.given.user();
    const attacker = await t.given.signedInUser();
    expect((await t.client().post('/api/user/delete-account', { id: victim.id, current_password: victim.password })).status).toBe(401);
    expect((await attacker.client.post('/api/user/delete-account', { id: victim.id, current_password: victim.password })).status).toBe(403);
    expect((await t.client().post('/api/user/user-login', { username: victim.username, password: victim.password })).status).toBe(200);

    const social = await t.given.user();
    const client = await t.given.signedIn(social);
    await t.resources.database.db.execute(sql`update users set password_hash = null where id = ${social.id}`);
    await t.resources.database.db.execute(sql`update sessions set created_at = now() - interval '1 hour' where user_id = ${social.id}`);
    const stale = await client.post('/api/user/delete-account', { id: social.id });
    expect(stale.status).toBe(403);
    expect(stale.body.message).toBe(MSG.signInAgainToDelete);
    await t.resources.database.db.execute(sql`update sessions set created_at = now() where user_id = ${social.id}`);
    expect((await client.post('/api/user/delete-account', { id: social.id })).status).toBe(200);
  });

  it('purges archives after three months, once, whichever instance runs it', async () => {
    const user = await t.given.user();
    const client = await t.given.signedIn(user);
    expect((await client.post('/api/user/delete-account', { id: user.id, current_password: user.password })).status).toBe(200);
    const db = t.resources.database.db;
    const at = (iso: string) => createClosureService({ db, outbox: {} as EventOutbox, files: t.resources.files, forgetUser: async () => undefined, now: () => new Date(iso) });
    const soon = at(new Date(Date.now() + 80 * 24 * 3600_000).toISOString());
    expect(await soon.purgeArchives()).toBe(0);
    expect(await soon.archiveOf(user.id)).not.toBeNull();
    const later = new Date(Date.now() + 95 * 24 * 3600_000).toISOString();
    const [a, b] = await Promise.all([at(later).purgeArchives(1), at(later).purgeArchives(1)]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    expect(await at(later).archiveOf(user.id)).toBeNull();
    // The shell stays for the ledger; the name stays free.
    expect(await rows(sql`select username from users where id = ${user.id}`)).toEqual([{ username: `deleted-${user.id}` }]);
  });
});

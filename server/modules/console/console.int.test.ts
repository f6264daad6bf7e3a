/**
 * The operator console through HTTP: each action works and is recorded in the audit log; each is refused
 * (404, the console is not told to exist) to visitors, plain users and moderators without its
 * permission; the audit log cannot be changed, even by the database's own users.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill, MSG } from '../../../common/messages';
import { eventually } from '../../testing/eventually';
import type { HttpSession } from '../../testing/http-session';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { publishImagePost } from '../../testing/uploads';
import { createAccountAdmin } from '../accounts/admin';

let t: TestApp;
let admin: SignedInUser;
let granter: SignedInUser;
let hider: SignedInUser;
let editor: SignedInUser;
let plain: SignedInUser;

interface Entry { id: number; actor: { user_id: number } | null; action: string; target_type: string; target_id: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }

const ok = async (res: Promise<{ status: number; body: Record<string, unknown> }>) => {
  const done = await res;
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body;
};
const audit = async (): Promise<Entry[]> => (await ok(admin.client.get('/api/admin/audit-log', { limit: 100 }))).entries as Entry[];
const lastAudit = async (action: string, targetId: number | string) => (await audit()).find((e) => e.action === action && e.target_id === String(targetId));

/** A live stream reported by a new viewer. */
async function reportedStream() {
  const live = await t.given.liveStream({ title: 'Reported show' });
  const viewer = await t.given.signedInUser();
  await ok(viewer.client.post('/api/streams/report-stream', { id: live.streamId, type: 'inappropriate', user_comment: 'Not for here' }));
  return { live, viewer };
}

const as = (who: { client: HttpSession } | null) => who?.client ?? t.client();

beforeAll(async () => {
  t = await startTestApp();
  ({ admin, granter, hider, editor } = await t.given.moderators());
  plain = await t.given.signedInUser();
});
afterAll(() => t.close());

describe('the reports queue', () => {
  it('lists a stream report with its reporter, reason, details, preview and owner, for moderators of reports only', async () => {
    const { live, viewer } = await reportedStream();
    const queue = await ok(granter.client.get('/api/admin/reports'));
    const report = (queue.reports as Array<Record<string, unknown>>).find((r) => r.kind === 'stream' && r.item_id === live.streamId);
    expect(report).toMatchObject({
      reporter: { user_id: viewer.user.id, username: viewer.user.username }, type: 'inappropriate', comment: 'Not for here',
      owner: { user_id: live.user.id, username: live.user.username }, preview: 'Reported show', item_state: 'live', handled: null,
    });
    expect((await hider.client.get('/api/admin/reports')).status).toBe(200);
    for (const who of [null, plain, editor]) expect((await as(who).get('/api/admin/reports')).status).toBe(404);
  });

  it('ends a stream and suspends its owner, closes the reports with who handled them, and records both', async () => {
    const { live } = await reportedStream();
    for (const who of [null, plain, editor]) {
      expect((await as(who).post('/api/admin/report-action', { kind: 'stream', item_id: live.streamId, action: 'END_STREAM' })).status).toBe(404);
    }
    const refused = await hider.client.post('/api/admin/report-action', { kind: 'stream', item_id: live.streamId, action: 'END_STREAM' });
    expect(refused.status).toBe(403);
    expect((await ok(granter.client.post('/api/admin/report-action', { kind: 'stream', item_id: live.streamId, action: 'END_STREAM' }))).handled).toBe(1);
    // Handled, and still open to a further action; an item nobody reported is not in the queue.
    const unreported = await t.given.liveStream();
    const none = await granter.client.post('/api/admin/report-action', { kind: 'stream', item_id: unreported.streamId, action: 'END_STREAM' });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(MSG.noSuchReport);
    expect((await ok(granter.client.post('/api/admin/report-action', { kind: 'stream', item_id: live.streamId, action: 'SUSPEND_USER' }))).handled).toBe(0);
    expect((await live.client.get('/api/user/session-detail')).body.user).toBeUndefined();
    const handled = (await ok(admin.client.get('/api/admin/reports', { status: 'handled', limit: 100 }))).reports as Array<Record<string, unknown>>;
    const mine = handled.filter((r) => r.item_id === live.streamId && r.kind === 'stream');
    // The latest handling shows.
    expect(mine.map((r) => r.handled)).toEqual([expect.objectContaining({ resolution: 'SUSPEND_USER', by: expect.objectContaining({ user_id: granter.user.id }) })]);

    expect(await lastAudit('stream.end', live.streamId)).toMatchObject({ actor: { user_id: granter.user.id }, target_type: 'stream', before: { live: true }, after: { live: false } });
    expect(await lastAudit('user.suspend', live.user.id)).toMatchObject({ actor: { user_id: granter.user.id }, before: { status: 'active' }, after: { status: 'suspended' } });
    expect(await lastAudit('stream.suspend-owner', live.streamId)).toBeDefined();
  });

  it('hides a stream (ALLOW REPORT_STREAM_HIDE) and dismisses reports, but the hider cannot delete', async () => {
    const { live } = await reportedStream();
    expect((await hider.client.post('/api/admin/report-action', { kind: 'stream', item_id: live.streamId, action: 'DELETE' })).status).toBe(403);
    await ok(hider.client.post('/api/admin/report-action', { kind: 'stream', item_id: live.streamId, action: 'HIDE' }));
    expect(await lastAudit('stream.hide', live.streamId)).toMatchObject({ before: { hidden: false }, after: { hidden: true } });
    const other = await reportedStream();
    await ok(hider.client.post('/api/admin/report-action', { kind: 'stream', item_id: other.live.streamId, action: 'DISMISS' }));
    expect(await lastAudit('report.dismiss', other.live.streamId)).toMatchObject({ actor: { user_id: hider.user.id }, target_type: 'stream' });
    // A new report opens the item again; the dismissed one stays handled.
    const second = await t.given.signedInUser();
    await ok(second.client.post('/api/streams/report-stream', { id: other.live.streamId, type: 'troll' }));
    const open = (await ok(admin.client.get('/api/admin/reports', { limit: 100 }))).reports as Array<Record<string, unknown>>;
    expect(open.filter((r) => r.item_id === other.live.streamId && r.kind === 'stream').map((r) => (r.reporter as { user_id: number }).user_id)).toEqual([second.user.id]);
  });

  it('deletes a reported stream, post and comment; a comment cannot be hidden', async () => {
    const { live } = await reportedStream();
    await ok(admin.client.post('/api/admin/report-action', { kind: 'stream', item_id: live.streamId, action: 'DELETE' }));
    expect(await lastAudit('stream.delete', live.streamId)).toMatchObject({ after: { deleted: true } });

    const author = await t.given.signedInUser();
    const postId = await publishImagePost(author.client, { title: 'Reported picture' });
    const reporter = await t.given.signedInUser();
    await ok(reporter.client.post('/api/post/report', { post_id: postId, type: 'crime', user_comment: 'Stolen' }));
    const comment = await ok(author.client.post('/api/post/create-comment', { post_id: postId, body: 'A rude comment' }));
    const commentId = (comment.comment as { comment_id: number }).comment_id;
    await ok(reporter.client.post('/api/comment/report', { comment_id: commentId, type: 'troll' }));
    const queue = (await ok(granter.client.get('/api/admin/reports', { limit: 100 }))).reports as Array<Record<string, unknown>>;
    expect(queue.find((r) => r.kind === 'post' && r.item_id === postId)).toMatchObject({ preview: 'Reported picture', comment: 'Stolen', type: 'crime' });
    expect(queue.find((r) => r.kind === 'comment' && r.item_id === commentId)).toMatchObject({ preview: 'A rude comment' });

    expect((await granter.client.post('/api/admin/report-action', { kind: 'comment', item_id: commentId, action: 'HIDE' })).status).toBe(400);
    await ok(granter.client.post('/api/admin/report-action', { kind: 'comment', item_id: commentId, action: 'DELETE' }));
    expect(await lastAudit('comment.delete', commentId)).toMatchObject({ before: { body: 'A rude comment' } });
    await ok(granter.client.post('/api/admin/report-action', { kind: 'post', item_id: postId, action: 'DELETE' }));
    expect(await lastAudit('post.delete', postId)).toMatchObject({ before: { title: 'Reported picture' }, after: { deleted: true } });
    expect((await reporter.client.get('/api/post/post-lookup', { id: postId })).status).toBe(404);
  });
});

describe('users', () => {
  it('finds, shows, suspends and lifts, grants and revokes, and changes roles, for administrators only', async () => {
    const person = await t.given.signedInUser();
    const found = await ok(admin.client.get('/api/admin/users', { query: person.user.username.slice(0, 12) }));
    expect(found.users).toContainEqual(expect.objectContaining({ user_id: person.user.id, username: person.user.username, status: 'active', role: 'user' }));
    const shown = await ok(admin.client.get('/api/admin/user', { id: person.user.id }));
    expect(shown.user).toMatchObject({ user_id: person.user.id, perms: expect.arrayContaining(['CREATE PLAN']), counts: { streams: 0, posts: 0, reports_against: 0 } });

    const calls: Array<[string, Record<string, unknown>, string]> = [
      ['/api/admin/user-grant', { id: person.user.id, perm: 'ALLOW REFERRAL_ACCESS' }, 'user.grant'],
      ['/api/admin/user-revoke', { id: person.user.id, perm: 'CREATE PLAN' }, 'user.revoke'],
      ['/api/admin/user-role', { id: person.user.id, role: 'admin' }, 'user.role'],
    ];
    for (const [path, body, action] of calls) {
      for (const who of [null, plain, granter, hider, editor]) expect((await as(who).post(path, body)).status, `${path}`).toBe(404);
      await ok(admin.client.post(path, body));
      expect(await lastAudit(action, person.user.id), action).toMatchObject({ actor: { user_id: admin.user.id }, target_type: 'user' });
    }
    expect(await lastAudit('user.grant', person.user.id)).toMatchObject({ after: { perms: expect.arrayContaining(['ALLOW REFERRAL_ACCESS']) } });
    expect(await lastAudit('user.role', person.user.id)).toMatchObject({ before: { role: 'user' }, after: { role: 'admin' } });
    const refused = await admin.client.post('/api/admin/user-suspend', { id: person.user.id, reason: 'Spam' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MSG.adminsNotSuspendable);
    await ok(admin.client.post('/api/admin/user-role', { id: person.user.id, role: 'user' }));
    const own = await admin.client.post('/api/admin/user-role', { id: admin.user.id, role: 'user' });
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(MSG.ownRoleUnchangeable);

    for (const who of [null, plain, granter]) expect((await as(who).post('/api/admin/user-suspend', { id: person.user.id, reason: 'Spam' })).status).toBe(404);
    // A suspension needs a reason, and lasts one of the offered durations (or until lifted).
    const noReason = await admin.client.post('/api/admin/user-suspend', { id: person.user.id, reason: '  ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.message).toBe(MSG.suspendReasonRequired);
    expect((await admin.client.post('/api/admin/user-suspend', { id: person.user.id, reason: 'Spam', days: 2 })).status).toBe(400);
    await ok(admin.client.post('/api/admin/user-suspend', { id: person.user.id, reason: 'Spam in chat', days: 7 }));
    expect(await lastAudit('user.suspend', person.user.id)).toMatchObject({ actor: { user_id: admin.user.id }, after: { status: 'suspended', reason: 'Spam in chat', until: expect.any(String) } });
    const told = await t.client().post('/api/user/user-login', { username: person.user.username, password: person.user.password });
    expect(told.status).toBe(403);
    expect(told.body.message).toMatch(/^Your account is suspended until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\. Reason: Spam in chat\./);
    expect((await person.client.get('/api/user/session-detail')).body.user).toBeUndefined();
    expect((await ok(admin.client.get('/api/admin/user', { id: person.user.id }))).user).toMatchObject({ status: 'suspended' });
    await ok(admin.client.post('/api/admin/user-lift', { id: person.user.id }));
    expect(await lastAudit('user.lift', person.user.id)).toMatchObject({ before: { status: 'suspended' }, after: { status: 'active' } });
    await t.client().signIn(person.user.username, person.user.password);
    for (const who of [null, plain, granter]) {
      expect((await as(who).get('/api/admin/users')).status).toBe(404);
      expect((await as(who).get('/api/admin/user', { id: person.user.id })).status).toBe(404);
    }
  });
});

describe('the command line', () => {
  it('grants, revokes and changes roles by the same rules, recorded with no actor', async () => {
    const cli = createAccountAdmin({ db: t.resources.database.db });
    const person = await t.given.user();
    await cli.grant(null, { username: person.username }, 'GRANT PERMISSION');
    expect(await lastAudit('user.grant', person.id)).toMatchObject({ actor: null, after: { perms: expect.arrayContaining(['GRANT PERMISSION']) } });
    await cli.revoke(null, { username: person.username.toUpperCase() }, 'GRANT PERMISSION');
    await cli.setRole(null, { username: person.username }, 'admin');
    expect(await lastAudit('user.role', person.id)).toMatchObject({ actor: null, after: { role: 'admin' } });
    await expect(cli.grant(null, { username: 'nobody_here' }, 'CREATE PLAN')).rejects.toThrow('No user named nobody_here');
  });
});

describe('featured streams', () => {
  it('lists live candidates, makes and removes featured (UPDATE STREAM_ANY), audited', async () => {
    const live = await t.given.liveStream({ title: 'Candidate' });
    for (const who of [null, plain, granter, hider]) expect((await as(who).get('/api/admin/featured')).status).toBe(404);
    const list = await ok(editor.client.get('/api/admin/featured'));
    expect(list.streams).toContainEqual(expect.objectContaining({ stream_id: live.streamId, live: true, featured: false, owner: { user_id: live.user.id, username: live.user.username } }));
    for (const who of [null, plain, granter]) expect((await as(who).post('/api/admin/featured-set', { stream_id: live.streamId, featured: true })).status).toBe(404);
    await ok(editor.client.post('/api/admin/featured-set', { stream_id: live.streamId, featured: true }));
    expect(await lastAudit('stream.feature', live.streamId)).toMatchObject({ actor: { user_id: editor.user.id }, before: { featured: false }, after: { featured: true } });
    await ok(admin.client.post('/api/admin/featured-set', { stream_id: live.streamId, featured: false }));
    expect(await lastAudit('stream.unfeature', live.streamId)).toMatchObject({ actor: { user_id: admin.user.id }, after: { featured: false } });
  });
});

describe('custom channels', () => {
  it('makes a channel of named broadcasters that lists their streams and posts, for everyone; removes it; audited; admins only', async () => {
    const star = await t.given.liveStream({ title: 'Picked show' });
    const other = await t.given.liveStream({ title: 'Not picked' });
    await publishImagePost(star.client, { title: 'Picked picture' });
    const input = { name: `Picks ${star.user.id}`, rating: 'G', broadcasters: [star.user.username.toUpperCase()] };
    for (const who of [null, plain, editor, granter]) expect((await as(who).post('/api/admin/channel-create', input)).status).toBe(404);
    for (const who of [null, plain, editor]) expect((await as(who).get('/api/admin/channels')).status).toBe(404);

    const unknown = await admin.client.post('/api/admin/channel-create', { ...input, broadcasters: [star.user.username, 'nobody-here'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(fill(MSG.channelUnknownBroadcasters, { names: 'nobody-here' }));
    expect((await admin.client.post('/api/admin/channel-create', { ...input, broadcasters: [] })).body.message).toBe(MSG.channelBroadcastersRequired);
    expect((await admin.client.post('/api/admin/channel-create', { ...input, name: ' ' })).status).toBe(400);

    const { channel } = (await ok(admin.client.post('/api/admin/channel-create', input))) as { channel: { id: number; link: string; broadcasters: unknown[] } };
    expect(channel).toMatchObject({ link: `/channel/custom?id=${channel.id}&metaType=G`, broadcasters: [{ user_id: star.user.id, username: star.user.username }] });
    expect((await admin.client.post('/api/admin/channel-create', input)).status).toBe(409);
    expect(await lastAudit('channel.create', channel.id)).toMatchObject({ actor: { user_id: admin.user.id }, after: { name: input.name, broadcasterIds: [star.user.id] } });

    const visitor = t.client();
    const selector = (await visitor.get('/api/channel/base-group')).body.channels as Array<{ id: number; type: string; link: string }>;
    expect(selector.find((c) => c.id === channel.id)).toMatchObject({ type: 'custom', link: channel.link });
    const streams = await eventually(() => visitor.get('/api/channel/list-channel-streams', { id: channel.id }), (r) => r.body.total === 1);
    expect((streams.body.streams as Array<{ stream_id: number }>).map((s) => s.stream_id)).toEqual([star.streamId]);
    expect((streams.body.streams as Array<{ stream_id: number }>).map((s) => s.stream_id)).not.toContain(other.streamId);
    const posts = (await visitor.get('/api/channel/list-channel-posts', { id: channel.id })).body.posts as Array<{ user_id: number }>;
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((p) => p.user_id === star.user.id)).toBe(true);

    for (const who of [null, plain, editor]) expect((await as(who).post('/api/admin/channel-delete', { id: channel.id })).status).toBe(404);
    const base = selector.find((c) => c.type === 'group')!;
    expect((await admin.client.post('/api/admin/channel-delete', { id: base.id })).status).toBe(404);
    await ok(admin.client.post('/api/admin/channel-delete', { id: channel.id }));
    expect(await lastAudit('channel.delete', channel.id)).toMatchObject({ before: { name: input.name }, after: null });
    const after = await eventually(() => visitor.get('/api/channel/base-group'), (r) => !(r.body.channels as Array<{ id: number }>).some((c) => c.id === channel.id));
    expect(after.status).toBe(200);
    expect((await visitor.get('/api/channel/list-channel-streams', { id: channel.id })).status).toBe(404);
  });

  it('shows an 18+ custom channel only where the site shows adult content', async () => {
    const owner = await t.given.user({ perms: ['ALLOW CUSTOM_STREAM_CLIENT', 'CREATE STREAM_LIVE_G', 'CREATE STREAM_LIVE_PLUS18'] });
    const { channel } = (await ok(admin.client.post('/api/admin/channel-create', { name: `Late picks ${owner.id}`, rating: 'PLUS_18', broadcasters: [owner.username] }))) as { channel: { id: number; link: string } };
    expect(channel.link).toBe(`/channel/custom?id=${channel.id}&metaType=PLUS_18`);
    const listed = async (skin?: string) => ((await t.client().request('GET', '/api/channel/base-group', { headers: skin ? { 'x-service': skin } : {} })).body.channels as Array<{ id: number }>).map((c) => c.id);
    expect(await listed()).not.toContain(channel.id);
    expect(await listed('afterdark')).toContain(channel.id);
  });
});

describe('system messages', () => {
  it('creates, schedules and retires messages that the server notification call shows only in their window', async () => {
    const shownNow = await ok(admin.client.post('/api/admin/system-message-create', { title: 'Maintenance tonight', content: '<p>From 22:00</p>', frequency: 'always', locale: 'en' }));
    const id = (shownNow.message as { id: number }).id;
    expect(await lastAudit('message.create', id)).toMatchObject({ actor: { user_id: admin.user.id }, after: { title: 'Maintenance tonight' } });
    const later = await ok(admin.client.post('/api/admin/system-message-create', {
      title: 'New year', content: '<p>Soon</p>', frequency: 'once', locale: 'en', starts_at: new Date(Date.now() + 3_600_000).toISOString(),
    }));
    const laterId = (later.message as { id: number }).id;
    const visible = async () => ((await t.client().get('/api/user/get-system-messages', { locale: 'en' })).body.messages as Array<{ id: number }>).map((m) => m.id);
    expect(await visible()).toContain(id);
    expect(await visible()).not.toContain(laterId);
    expect((await admin.client.post('/api/admin/system-message-create', {
      title: 'Backwards', content: 'x', frequency: 'once', starts_at: '2030-01-02T00:00:00Z', ends_at: '2030-01-01T00:00:00Z',
    })).status).toBe(400);
    await ok(admin.client.post('/api/admin/system-message-retire', { id }));
    expect(await visible()).not.toContain(id);
    expect(await lastAudit('message.retire', id)).toMatchObject({ before: { ends_at: null } });
    const all = await ok(admin.client.get('/api/admin/system-messages'));
    expect((all.messages as Array<{ id: number }>).map((m) => m.id)).toEqual(expect.arrayContaining([id, laterId]));
    for (const who of [null, plain, granter, hider, editor]) {
      expect((await as(who).get('/api/admin/system-messages')).status).toBe(404);
      expect((await as(who).post('/api/admin/system-message-create', { title: 'x', content: 'x', frequency: 'once' })).status).toBe(404);
      expect((await as(who).post('/api/admin/system-message-retire', { id: laterId })).status).toBe(404);
    }
  });
});

describe('the outbox and the audit log', () => {
  it('shows the outbox and the audit log to administrators only', async () => {
    const outbox = await ok(admin.client.get('/api/admin/outbox'));
    expect(outbox.transport).toBe('outbox');
    for (const who of [null, plain, granter, hider, editor]) {
      expect((await as(who).get('/api/admin/outbox')).status).toBe(404);
      expect((await as(who).get('/api/admin/audit-log')).status).toBe(404);
    }
  });

  it('sets a free stream to paid (the smallest price), audited; a viewer then owes it; a paid stream keeps its price', async () => {
    const live = await t.given.liveStream();
    const viewer = await t.given.signedInUser();
    const lookup = async (id: number) => (await viewer.client.get('/api/streams/stream-lookup', { id })).body.stream as Record<string, unknown>;
    expect(await lookup(live.streamId)).toMatchObject({ tip_viewer_min_amount: 0, tip_owed: 0 });
    expect((await plain.client.post('/api/streams/report-stream-action', { stream_ids: [live.streamId], event: 'SET_STREAM_PAID' })).status).toBe(403);
    await ok(editor.client.post('/api/streams/report-stream-action', { stream_ids: [live.streamId], event: 'SET_STREAM_PAID', user_comment: 'premium show' }));
    expect(await lookup(live.streamId)).toMatchObject({ tip_viewer_min_amount: 10, tip_owed: 10 });
    expect(await lastAudit('stream.set-paid', live.streamId)).toMatchObject({
      actor: { user_id: editor.user.id }, before: { tip_viewer_min_amount: 0 }, after: { tip_viewer_min_amount: 10, comment: 'premium show' },
    });
    // The owner cannot make it free again.
    const free = await live.client.post('/api/streams/update-stream-info', { id: live.streamId, data: { tip_viewer_min_amount: 0 } });
    expect([free.status, free.body.message]).toEqual([400, MSG.paidStaysPaid]);

    const dear = await t.given.liveStream({ tip_viewer_min_amount: 200 });
    await ok(editor.client.post('/api/streams/report-stream-action', { stream_ids: [dear.streamId], event: 'SET_STREAM_PAID' }));
    expect(await lookup(dear.streamId)).toMatchObject({ tip_viewer_min_amount: 200 });
  });

  it('records report-stream-action too, and no one can change or remove an entry', async () => {
    const live = await t.given.liveStream();
    await ok(editor.client.post('/api/streams/report-stream-action', { stream_ids: [live.streamId], event: 'MOVE_TO_18', user_comment: 'adult' }));
    const entry = await lastAudit('stream.move-to-18', live.streamId);
    expect(entry).toMatchObject({ actor: { user_id: editor.user.id }, before: { rating: 'G' }, after: { rating: 'PLUS_18', comment: 'adult' } });
    const db = t.resources.database.db;
    await expect(db.execute(sql`update audit_log set action = 'nothing' where id = ${entry!.id}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_log where id = ${entry!.id}`)).rejects.toThrow();
    expect(await lastAudit('stream.move-to-18', live.streamId)).toEqual(entry);
  });
});

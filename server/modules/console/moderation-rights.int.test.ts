/**
 * One moderation rule for the console and the public routes (common/rules/moderation.ts), through HTTP:
 * each right refused to the moderator permissions that do not give it, with no audit entry; each
 * moderator action taken leaves its audit entry; and the entry is written in the change's transaction
 * (when the audit log refuses the entry, the change does not happen).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { publishImagePost } from '../../testing/uploads';

let t: TestApp;
let admin: SignedInUser;
let granter: SignedInUser;
let hider: SignedInUser;
let editor: SignedInUser;

interface Entry { actor: { user_id: number } | null; action: string; target_type: string; target_id: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }

const entriesOn = async (targetType: string, targetId: number): Promise<Entry[]> => {
  const res = await admin.client.get('/api/admin/audit-log', { limit: 100, target_type: targetType, target_id: String(targetId) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.entries as Entry[];
};
const postExists = async (postId: number, by: SignedInUser) => (await by.client.get('/api/post/post-lookup', { id: postId })).status === 200;

beforeAll(async () => {
  t = await startTestApp();
  ({ admin, granter, hider, editor } = await t.given.moderators());
});
afterAll(() => t.close());

describe('deleting a post through /api/post/delete', () => {
  it('is refused to ALLOW REPORT_STREAM_HIDE and UPDATE STREAM_ANY, as in the console, and leaves no entry', async () => {
    const author = await t.given.signedInUser();
    const postId = await publishImagePost(author.client, { title: 'Not theirs to delete' });
    for (const who of [hider, editor]) {
      const refused = await who.client.post('/api/post/delete', { post_id: postId });
      expect(refused.status).toBe(403);
    }
    expect(await postExists(postId, author)).toBe(true);
    expect(await entriesOn('post', postId)).toEqual([]);
  });

  it('by GRANT PERMISSION (or an admin) deletes anyone\'s post and records who did it; the owner\'s own deletion is no moderation', async () => {
    const author = await t.given.signedInUser();
    const postId = await publishImagePost(author.client, { title: 'Reported elsewhere' });
    expect((await granter.client.post('/api/post/delete', { post_id: postId })).status).toBe(200);
    expect(await postExists(postId, author)).toBe(false);
    expect(await entriesOn('post', postId)).toEqual([expect.objectContaining({
      actor: expect.objectContaining({ user_id: granter.user.id }), action: 'post.delete',
      before: expect.objectContaining({ title: 'Reported elsewhere', owner_id: author.user.id }), after: { deleted: true },
    })]);

    const byAdmin = await publishImagePost(author.client);
    expect((await admin.client.post('/api/post/delete', { post_id: byAdmin })).status).toBe(200);
    expect((await entriesOn('post', byAdmin)).map((e) => e.action)).toEqual(['post.delete']);

    const own = await publishImagePost(author.client);
    expect((await author.client.post('/api/post/delete', { post_id: own })).status).toBe(200);
    expect(await entriesOn('post', own)).toEqual([]);
  });

  it('writes the entry in the deletion\'s transaction: when the audit log refuses it, the post stays', async () => {
    const author = await t.given.signedInUser();
    const postId = await publishImagePost(author.client);
    await refuseAuditOf('post', postId, async () => {
      expect((await granter.client.post('/api/post/delete', { post_id: postId })).status).toBe(500);
    });
    expect(await postExists(postId, author)).toBe(true);
  });
});

describe('stream moderation on the public routes', () => {
  it('deletes another\'s stream with GRANT PERMISSION only, audited; refused holders leave no entry', async () => {
    const live = await t.given.liveStream();
    for (const who of [hider, editor]) expect((await who.client.post('/api/streams/delete', { id: live.streamId })).status).toBe(404);
    for (const who of [hider, granter]) expect((await who.client.post('/api/streams/add-stream-thumbnail', { id: live.streamId })).status).toBe(404);
    expect(await entriesOn('stream', live.streamId)).toEqual([]);
    expect((await granter.client.post('/api/streams/delete', { id: live.streamId })).status).toBe(200);
    expect(await entriesOn('stream', live.streamId)).toEqual([expect.objectContaining({
      actor: expect.objectContaining({ user_id: granter.user.id }), action: 'stream.delete', before: expect.objectContaining({ deleted: false, live: true }),
    })]);
  });

  it('a stream stays when the audit log refuses the entry of its deletion or hiding', async () => {
    const live = await t.given.liveStream();
    await refuseAuditOf('stream', live.streamId, async () => {
      expect((await granter.client.post('/api/streams/delete', { id: live.streamId })).status).toBe(500);
      expect((await hider.client.post('/api/streams/report-stream-action', { stream_ids: [live.streamId], event: 'HIDE_STREAM' })).status).not.toBe(200);
    });
    const { rows } = await t.resources.database.db.execute<{ deleted: boolean; hidden: boolean }>(
      sql`select deleted_at is not null as deleted, hidden from streams where id = ${live.streamId}`);
    expect(rows[0]).toEqual({ deleted: false, hidden: false });
  });

  it('bans a viewer by a moderator with an entry; the owner\'s own ban and a refused one leave none', async () => {
    const live = await t.given.liveStream();
    const [first, second, third] = [await t.given.user(), await t.given.user(), await t.given.user()];
    expect((await hider.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: first.id })).status).toBe(404);
    expect(await entriesOn('stream', live.streamId)).toEqual([]);
    expect((await live.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: second.id })).status).toBe(200);
    expect(await entriesOn('stream', live.streamId)).toEqual([]);
    expect((await editor.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: third.id })).status).toBe(200);
    expect(await entriesOn('stream', live.streamId)).toEqual([expect.objectContaining({
      actor: expect.objectContaining({ user_id: editor.user.id }), action: 'stream.ban-viewer', after: { banned_user_id: third.id },
    })]);
  });

  it('suspends the owner, hides their streams and records both in one transaction', async () => {
    const live = await t.given.liveStream();
    await refuseAuditOf('stream', live.streamId, async () => {
      expect((await granter.client.post('/api/streams/report-stream-action', { stream_ids: [live.streamId], event: 'SUSPEND_USER' })).status).toBe(500);
    });
    // The stream's entry was refused: the suspension and the user's entry went with it.
    expect(await entriesOn('user', live.user.id)).toEqual([]);
    expect((await live.client.get('/api/user/session-detail')).body.user).toMatchObject({ user_id: live.user.id });

    expect((await granter.client.post('/api/streams/report-stream-action', { stream_ids: [live.streamId], event: 'SUSPEND_USER' })).status).toBe(200);
    expect((await entriesOn('user', live.user.id)).map((e) => e.action)).toEqual(['user.suspend']);
    expect((await entriesOn('stream', live.streamId)).map((e) => e.action)).toEqual(['stream.suspend-owner']);
    expect((await entriesOn('stream', live.streamId))[0]!.after).toMatchObject({ hidden: true });
  });
});

describe('the console\'s Dismiss', () => {
  it('closes the reports and records it together: a refused entry leaves the reports open', async () => {
    const live = await t.given.liveStream();
    const reporter = await t.given.signedInUser();
    expect((await reporter.client.post('/api/streams/report-stream', { id: live.streamId, type: 'troll' })).status).toBe(200);
    const dismiss = () => hider.client.post('/api/admin/report-action', { kind: 'stream', item_id: live.streamId, action: 'DISMISS' });
    await refuseAuditOf('stream', live.streamId, async () => {
      expect((await dismiss()).status).toBe(500);
    });
    const open = await admin.client.get('/api/admin/reports', { limit: 100 });
    expect((open.body.reports as Array<{ kind: string; item_id: number }>).some((r) => r.kind === 'stream' && r.item_id === live.streamId)).toBe(true);
    expect((await dismiss()).body.handled).toBe(1);
    expect((await entriesOn('stream', live.streamId)).map((e) => e.action)).toEqual(['report.dismiss']);
  });
});

/**
 * Runs `body` while the audit log refuses entries about one target (a trigger raising an error), so a
 * change written in the entry's transaction cannot commit.
 */
async function refuseAuditOf(targetType: string, targetId: number, body: () => Promise<void>) {
  const db = t.resources.database.db;
  const name = `refuse_audit_${targetType}_${targetId}`;
  await db.execute(sql.raw(`create function ${name}() returns trigger language plpgsql as $$
    begin
      if new.target_type = '${targetType}' and new.target_id = '${targetId}' then raise exception 'audit refused in this test'; end if;
      return new;
    end $$`));
  await db.execute(sql.raw(`create trigger ${name} before insert on audit_log for each row execute function ${name}()`));
  try {
    await body();
  } finally {
    await db.execute(sql.raw(`drop trigger ${name} on audit_log`));
    await db.execute(sql.raw(`drop function ${name}()`));
  }
}

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  addChatModerator, approveChatLine, chatModeration, chatModerators, deleteChatLine, getChatRules, platformChatFilter, removeChatModerator, saveChatRules,
  setPlatformChatFilter, timeOutChatter,
} from '../../../common/api/chat';
import { MSG } from '../../../common/messages';
import { streamChannelOf, userChannelOf } from '../../../common/realtime-channels';
import type { SignedInUser } from '../../testing/harness';
import { useListeningTestApp } from '../../testing/listening-app';

const served = useListeningTestApp();

const refusedWith = (message: string) => expect.objectContaining({ op: 'error', message });
const acked = expect.objectContaining({ op: 'ack' });
const rules = { slow_mode_seconds: 0, audience: 'everyone' as const, block_links: false, filter_action: 'refuse' as const, blocked_words: [] };
const db = () => served.t.resources.database.db;

/** A socket of `who` listening on their own user channel and the stream's public channel. */
async function listening(who: SignedInUser, streamId: number) {
  const socket = await served.socketOf(who);
  await socket.request({ op: 'subscribe', channel: userChannelOf(who.user.id) });
  await socket.request({ op: 'subscribe', channel: streamChannelOf(streamId) });
  return socket;
}

async function lineIdOf(streamId: number, text: string): Promise<string> {
  const { rows } = await db().execute<{ id: string }>(sql`select id::text as id from chat_messages where stream_id = ${streamId} and text = ${text}`);
  return rows[0]!.id;
}

/** The shown lines a newcomer's history carries. */
async function historyTexts(streamId: number): Promise<string[]> {
  const socket = await served.socketOf();
  const subscribed = await socket.request({ op: 'subscribe', channel: streamChannelOf(streamId) });
  return (subscribed.history as Array<{ type: string; text?: string }>).filter((m) => m.type === 'COMMENT').map((m) => m.text!);
}

async function auditActions(actorId: number): Promise<string[]> {
  const { rows } = await db().execute<{ action: string }>(sql`select action from audit_log where actor_id = ${actorId} and action like 'chat.%' order by id`);
  return rows.map((r) => r.action);
}

describe('a broadcaster’s chat moderators', () => {
  it('are appointed by name, listed, and dismissed, each change audited', async () => {
    const owner = await served.t.given.signedInUser();
    const mod = await served.t.given.signedInUser();
    const added = await owner.client.call(addChatModerator, { username: mod.user.username });
    expect(added.moderators).toEqual([expect.objectContaining({ user_id: mod.user.id, username: mod.user.username })]);
    expect((await owner.client.call(chatModerators, {})).moderators).toHaveLength(1);
    // Appointing twice changes nothing; unknown names and oneself are refused.
    expect((await owner.client.call(addChatModerator, { username: mod.user.username })).moderators).toHaveLength(1);
    expect(await owner.client.refusal(addChatModerator, { username: 'nobody_here_at_all' })).toMatchObject({ status: 404, body: { message: MSG.moderatorUnknown } });
    expect(await owner.client.refusal(addChatModerator, { username: owner.user.username })).toMatchObject({ status: 400, body: { message: MSG.moderatorIsYou } });
    expect((await owner.client.call(removeChatModerator, { user_id: mod.user.id })).moderators).toEqual([]);
    expect(await auditActions(owner.user.id)).toEqual(['chat.moderator-add', 'chat.moderator-remove']);
  });

  it('delete a line: gone for everyone now and from the history, audited; a dismissed moderator may not', async () => {
    const live = await served.t.given.liveStream();
    const mod = await served.t.given.signedInUser();
    const viewer = await served.t.given.signedInUser();
    await live.client.call(addChatModerator, { username: mod.user.username });
    const watcher = await listening(viewer, live.streamId);
    expect(await served.say(viewer, live.streamId, 'a rude line')).toEqual(acked);
    expect(await served.say(viewer, live.streamId, 'a kind line')).toEqual(acked);
    const rude = await lineIdOf(live.streamId, 'a rude line');

    // Neither a plain viewer nor the line's writer moderates.
    expect(await viewer.client.refusal(deleteChatLine, { stream_id: live.streamId, timetoken: rude })).toMatchObject({ status: 403, body: { message: MSG.notChatModerator } });
    await mod.client.call(deleteChatLine, { stream_id: live.streamId, timetoken: rude });
    expect((await watcher.message('LINE-REMOVED')).message).toEqual({ type: 'LINE-REMOVED', data: { stream_id: live.streamId, timetoken: rude } });
    expect(await historyTexts(live.streamId)).toEqual(['a kind line']);
    expect(await mod.client.refusal(deleteChatLine, { stream_id: live.streamId, timetoken: rude })).toMatchObject({ status: 404, body: { message: MSG.chatLineUnknown } });
    expect(await auditActions(mod.user.id)).toEqual(['chat.line-delete']);

    await live.client.call(removeChatModerator, { user_id: mod.user.id });
    const kind = await lineIdOf(live.streamId, 'a kind line');
    expect((await mod.client.refusal(deleteChatLine, { stream_id: live.streamId, timetoken: kind })).status).toBe(403);
  });

  it('time a viewer out of the broadcaster’s chat, but never the broadcaster or a moderator', async () => {
    const live = await served.t.given.liveStream();
    const mod = await served.t.given.signedInUser();
    const viewer = await served.t.given.signedInUser();
    await live.client.call(addChatModerator, { username: mod.user.username });
    const { until } = await mod.client.call(timeOutChatter, { stream_id: live.streamId, user_id: viewer.user.id, minutes: 10 });
    expect(Date.parse(until) - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(await served.say(viewer, live.streamId, 'let me speak')).toEqual(refusedWith('A moderator has timed you out of this chat. You can chat again in 10 min.'));
    expect((await mod.client.refusal(timeOutChatter, { stream_id: live.streamId, user_id: live.user.id, minutes: 5 })).status).toBe(403);
    expect((await live.client.refusal(timeOutChatter, { stream_id: live.streamId, user_id: mod.user.id, minutes: 5 })).status).toBe(403);
    expect((await viewer.client.refusal(timeOutChatter, { stream_id: live.streamId, user_id: mod.user.id, minutes: 5 })).status).toBe(403);
    expect((await mod.client.refusal(timeOutChatter, { stream_id: live.streamId, user_id: viewer.user.id, minutes: 0 })).status).toBe(400);

    // A time-out of one minute, set back into the past, ends: the viewer chats again.
    await db().execute(sql`update chat_timeouts set until = now() - interval '1 second' where user_id = ${viewer.user.id}`);
    expect(await served.say(viewer, live.streamId, 'back again')).toEqual(acked);
  });

  it('set the channel’s slow mode and see its blocked words, and are not held by its rules', async () => {
    const live = await served.t.given.liveStream();
    const mod = await served.t.given.signedInUser();
    const stranger = await served.t.given.signedInUser();
    expect((await mod.client.refusal(saveChatRules, { ...rules, user_id: live.user.id })).status).toBe(403);
    await live.client.call(addChatModerator, { username: mod.user.username });
    const saved = await mod.client.call(saveChatRules, { ...rules, user_id: live.user.id, slow_mode_seconds: 30, blocked_words: ['spoiler'] });
    expect(saved.rules).toMatchObject({ slow_mode_seconds: 30, blocked_words: ['spoiler'] });
    expect((await mod.client.call(getChatRules, { user_id: live.user.id })).rules.blocked_words).toEqual(['spoiler']);
    expect((await stranger.client.call(getChatRules, { user_id: live.user.id })).rules.blocked_words).toBeUndefined();
    expect(await auditActions(mod.user.id)).toEqual(['chat.rules']);

    expect(await served.say(mod, live.streamId, 'one spoiler')).toEqual(acked);
    expect(await served.say(mod, live.streamId, 'and another at once')).toEqual(acked);
    expect(await served.say(stranger, live.streamId, 'first')).toEqual(acked);
    expect((await served.say(stranger, live.streamId, 'second'))).toMatchObject({ op: 'error', code: 'rate_limited' });
  });

  it('approve or remove the lines the channel’s filters hold, which nobody else sees meanwhile', async () => {
    const live = await served.t.given.liveStream();
    const mod = await served.t.given.signedInUser();
    const viewer = await served.t.given.signedInUser();
    const bystander = await served.t.given.signedInUser();
    await live.client.call(addChatModerator, { username: mod.user.username });
    await live.client.call(saveChatRules, { ...rules, block_links: true, filter_action: 'hold', blocked_words: ['giveaway'] });
    const modSocket = await listening(mod, live.streamId);
    const writerSocket = await listening(viewer, live.streamId);
    const other = await listening(bystander, live.streamId);

    expect(await served.say(viewer, live.streamId, 'see www.example.com')).toEqual(acked);
    expect(await served.say(viewer, live.streamId, 'free giveaway here')).toEqual(acked);
    const held = (await modSocket.message('HELD')).message as { data: { line: { text: string; timetoken: string } } };
    expect(held.data.line.text).toBe('see www.example.com');
    expect(((await writerSocket.message('HELD')).message as typeof held).data.line.text).toBe('see www.example.com');
    expect((await mod.client.call(chatModeration, { stream_id: live.streamId })).held.map((h) => h.line.text)).toEqual(['see www.example.com', 'free giveaway here']);
    expect(await bystander.client.call(chatModeration, { stream_id: live.streamId })).toMatchObject({ moderator: false, held: [] });
    expect(await historyTexts(live.streamId)).toEqual([]);

    const link = await lineIdOf(live.streamId, 'see www.example.com');
    const giveaway = await lineIdOf(live.streamId, 'free giveaway here');
    expect((await bystander.client.refusal(approveChatLine, { stream_id: live.streamId, timetoken: link })).status).toBe(403);
    await mod.client.call(approveChatLine, { stream_id: live.streamId, timetoken: link });
    expect((await other.message('COMMENT')).message).toMatchObject({ text: 'see www.example.com', timetoken: link });
    expect((await writerSocket.message('HELD-RESOLVED')).message).toEqual({ type: 'HELD-RESOLVED', data: { stream_id: live.streamId, timetoken: link, approved: true } });
    await live.client.call(deleteChatLine, { stream_id: live.streamId, timetoken: giveaway });
    expect(await historyTexts(live.streamId)).toEqual(['see www.example.com']);
    expect((await mod.client.call(chatModeration, { stream_id: live.streamId })).held).toEqual([]);
    // An approved line is approved once.
    expect((await mod.client.refusal(approveChatLine, { stream_id: live.streamId, timetoken: link })).status).toBe(404);
    expect(await auditActions(mod.user.id)).toEqual(['chat.line-approve']);
  });

  it('ban a viewer from the broadcaster’s streams, audited, but not a fellow moderator', async () => {
    const live = await served.t.given.liveStream();
    const [mod, other, viewer] = [await served.t.given.signedInUser(), await served.t.given.signedInUser(), await served.t.given.signedInUser()];
    await live.client.call(addChatModerator, { username: mod.user.username });
    await live.client.call(addChatModerator, { username: other.user.username });
    expect((await viewer.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: mod.user.id })).status).toBe(404);
    expect((await mod.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: other.user.id })).status).toBe(403);
    expect((await mod.client.post('/api/streams/ban-viewer', { stream_id: live.streamId, user_id: viewer.user.id })).status).toBe(200);
    expect(await served.say(viewer, live.streamId, 'am I here')).toMatchObject({ op: 'error', code: 'block' });
    const { rows } = await db().execute<{ n: number }>(sql`select count(*)::int as n from audit_log where actor_id = ${mod.user.id} and action = 'stream.ban-viewer'`);
    expect(rows[0]!.n).toBe(1);
  });
});

describe('the platform’s chat filter', () => {
  it('is the operator’s to edit, refuses its words in every chat, and holds for the broadcaster too', async () => {
    const { admin, granter } = await served.t.given.moderators();
    const live = await served.t.given.liveStream();
    const viewer = await served.t.given.signedInUser();
    expect((await viewer.client.refusal(platformChatFilter, {})).status).toBe(404);
    expect((await granter.client.refusal(setPlatformChatFilter, { words: ['x'] })).status).toBe(404);
    expect((await admin.client.call(setPlatformChatFilter, { words: ['Scamlink', 'scamlink', 'bad site'] })).words).toEqual(['scamlink', 'bad site']);
    expect((await admin.client.call(platformChatFilter, {})).words).toEqual(['scamlink', 'bad site']);
    expect(await auditActions(admin.user.id)).toEqual(['chat.platform-filter']);

    expect(await served.say(viewer, live.streamId, 'visit SCAMLINK now')).toEqual(refusedWith(MSG.chatPlatformWord));
    expect(await served.say(live, live.streamId, 'my bad site')).toEqual(refusedWith(MSG.chatPlatformWord));
    expect(await served.say(viewer, live.streamId, 'a fine line')).toEqual(acked);
    await admin.client.call(setPlatformChatFilter, { words: [] });
    expect(await served.say(viewer, live.streamId, 'scamlink is a word again')).toEqual(acked);
  });
});

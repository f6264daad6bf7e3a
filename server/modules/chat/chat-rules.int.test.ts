import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getChatRules, saveChatRules } from '../../../common/api/chat';
import { fill, MSG } from '../../../common/messages';
import type { HttpSession } from '../../testing/http-session';
import { useListeningTestApp } from '../../testing/listening-app';

const served = useListeningTestApp();

/** Writes a line on the stream's chat as this user: the ack, or the error frame of its refusal. */
const say = (client: HttpSession, streamId: number, text: string) => served.say(client, streamId, text);
const refusedWith = (message: string) => expect.objectContaining({ op: 'error', message });
const open = { slow_mode_seconds: 0, audience: 'everyone' as const, block_links: false, filter_action: 'refuse' as const, blocked_words: [] };

describe('a channel’s chat rules', () => {
  it('let anyone chat until the broadcaster sets them', async () => {
    const live = await served.t.given.liveStream();
    const viewer = await served.t.given.signedInUser();
    expect(await say(viewer.client, live.streamId, 'hello https://example.com')).toMatchObject({ op: 'ack' });
    expect((await served.t.client().call(getChatRules, { user_id: live.user.id })).rules).toEqual({ slow_mode_seconds: 0, audience: 'everyone', block_links: false, filter_action: 'refuse' });
  });

  it('keep the chat to followers, or to subscribers, but never hold the owner', async () => {
    const live = await served.t.given.liveStream();
    const stranger = await served.t.given.signedInUser();
    const follower = await served.t.given.signedInUser();
    await follower.client.post('/api/user/toggle-following', { id: live.user.id, isFollowing: true });
    await live.client.call(saveChatRules, { ...open, audience: 'followers' });
    expect(await say(stranger.client, live.streamId, 'hi')).toEqual(refusedWith(MSG.chatFollowersOnly));
    expect(await say(follower.client, live.streamId, 'hi')).toMatchObject({ op: 'ack' });
    expect(await say(live.client, live.streamId, 'welcome')).toMatchObject({ op: 'ack' });

    await live.client.call(saveChatRules, { ...open, audience: 'subscribers' });
    expect(await say(follower.client, live.streamId, 'hi again')).toEqual(refusedWith(MSG.chatSubscribersOnly));
    expect(await say(live.client, live.streamId, 'subscribers only now')).toMatchObject({ op: 'ack' });
  });

  it('hold a viewer to slow mode, each viewer on their own', async () => {
    const live = await served.t.given.liveStream();
    await live.client.call(saveChatRules, { ...open, slow_mode_seconds: 30 });
    const [one, two] = [await served.t.given.signedInUser(), await served.t.given.signedInUser()];
    expect(await say(one.client, live.streamId, 'first')).toMatchObject({ op: 'ack' });
    expect(await say(one.client, live.streamId, 'too soon')).toEqual(refusedWith(fill(MSG.chatSlowMode, { seconds: 30 })));
    expect(await say(two.client, live.streamId, 'my first')).toMatchObject({ op: 'ack' });
    expect(await say(live.client, live.streamId, 'the owner is not held')).toMatchObject({ op: 'ack' });
    expect(await say(live.client, live.streamId, 'not even twice')).toMatchObject({ op: 'ack' });
  });

  it('refuse blocked words and links, keeping nothing of the line', async () => {
    const live = await served.t.given.liveStream();
    const saved = await live.client.call(saveChatRules, { ...open, block_links: true, blocked_words: ['Spoiler', 'bad word'] });
    expect(saved.rules).toEqual({ slow_mode_seconds: 0, audience: 'everyone', block_links: true, filter_action: 'refuse', blocked_words: ['spoiler', 'bad word'] });
    const viewer = await served.t.given.signedInUser();
    expect(await say(viewer.client, live.streamId, 'big SPOILER ahead')).toEqual(refusedWith(MSG.chatBlockedWord));
    expect(await say(viewer.client, live.streamId, 'what a Bad Word')).toEqual(refusedWith(MSG.chatBlockedWord));
    expect(await say(viewer.client, live.streamId, 'see www.example.net')).toEqual(refusedWith(MSG.chatNoLinks));
    expect(await say(viewer.client, live.streamId, 'spoilers are fine')).toMatchObject({ op: 'ack' });
    const { rows } = await served.t.resources.database.db.execute<{ text: string }>(sql`select text from chat_messages where stream_id = ${live.streamId} and type = 'COMMENT'`);
    expect(rows.map((r) => r.text)).toEqual(['spoilers are fine']);

    // The words are the broadcaster's to read; everyone sees the rest.
    expect((await served.t.client().call(getChatRules, { user_id: live.user.id })).rules).toEqual({ slow_mode_seconds: 0, audience: 'everyone', block_links: true, filter_action: 'refuse' });
    expect((await viewer.client.call(getChatRules, { user_id: live.user.id })).rules.blocked_words).toBeUndefined();
    expect((await live.client.call(getChatRules, { user_id: live.user.id })).rules.blocked_words).toEqual(['spoiler', 'bad word']);
  });

  it('record every change in the audit log, and refuse rules that break the limits', async () => {
    const owner = await served.t.given.signedInUser();
    await owner.client.call(saveChatRules, { ...open, slow_mode_seconds: 5 });
    await owner.client.call(saveChatRules, { ...open, audience: 'followers' });
    const { rows } = await served.t.resources.database.db.execute<{ before: { slow_mode_seconds: number } | null; after: { audience: string } }>(
      sql`select before, after from audit_log where action = 'chat.rules' and target_id = ${String(owner.user.id)} order by id`);
    expect(rows.map((r) => [r.before?.slow_mode_seconds ?? null, r.after.audience])).toEqual([[null, 'everyone'], [5, 'followers']]);

    expect((await served.t.client().refusal(saveChatRules, open)).status).toBe(401);
    for (const input of [{ ...open, slow_mode_seconds: 301 }, { ...open, audience: 'friends' }, { ...open, blocked_words: Array.from({ length: 201 }, (_, i) => `w${i}`) }]) {
      expect((await owner.client.refusal(saveChatRules, input as never)).status).toBe(400);
    }
  });
});

/**
 * Direct messages (decision 0086) through HTTP and the members' own realtime channels: who may write to
 * whom, sending once per client key, unread counts and read receipts, typing, blocks, the limits, and a
 * reported message in the console's queue. Every account the harness makes may go live, so every sender
 * here is a creator.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as consoleApi from '../../../common/api/console';
import * as api from '../../../common/api/messages';
import * as subscriptionsApi from '../../../common/api/subscriptions';
import { fill, MSG } from '../../../common/messages';
import { BROADCASTS_PER_DAY, DM } from '../../../common/rules/messages';
import { userChannelOf } from '../../../common/realtime';
import type { SignedInUser } from '../../testing/harness';
import { useListeningTestApp } from '../../testing/listening-app';
import { users } from '../accounts/tables';
import { followersSql } from '../social';
import { createBroadcastDelivery } from './broadcast-delivery';
import { createMessageMedia } from './media';
import { directMessages, messageBroadcasts } from './tables';

const served = useListeningTestApp();
const { socketOf } = served;
const given = () => served.t.given;
const db = () => served.t.resources.database.db;

const key = () => randomUUID();
const send = (from: SignedInUser, to: SignedInUser, text: string, clientKey = key()) =>
  from.client.call(api.sendMessage, { user_id: to.user.id, text, client_key: clientKey });
const refusedSend = (from: SignedInUser, to: SignedInUser, text = 'hello there') =>
  from.client.refusal(api.sendMessage, { user_id: to.user.id, text, client_key: key() });

/** An account made a day and a minute ago: past the new-account limit. */
async function seasoned(): Promise<SignedInUser> {
  const member = await given().signedInUser();
  await db().update(users).set({ createdAt: new Date(Date.now() - DM.newAccountMs - 60_000) }).where(eq(users.id, member.user.id));
  return member;
}

async function subscribed(fan: SignedInUser, creator: SignedInUser) {
  const { templates } = await creator.client.call(subscriptionsApi.planTemplates, {});
  const template = templates[0]!;
  const { plan } = await creator.client.call(subscriptionsApi.planAdd, { template_id: template.template_id, price: template.prices[0]!.price, currency: 'CON' });
  await given().coins(fan.user, template.prices[0]!.price);
  const res = await fan.client.request('POST', subscriptionsApi.subscribe.path, {
    body: { plan_id: plan.plan_id, user_id: creator.user.id, auto_renew: false }, headers: { 'idempotency-key': key() },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('who may write to whom', () => {
  it('takes messages from everyone by default; a member keeps them to followers or subscribers', async () => {
    const star = await given().signedInUser();
    const stranger = await given().signedInUser();
    expect((await star.client.call(api.getMessageSettings, {})).settings).toEqual({ audience: 'everyone', bulk: true });
    await send(stranger, star, 'Hi from a stranger');

    await star.client.call(api.saveMessageSettings, { audience: 'followers' });
    const newcomer = await given().signedInUser();
    const refused = await refusedSend(newcomer, star);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(fill(MSG.messagesFromFollowers, { name: star.user.username }));
    const thread = await newcomer.client.call(api.thread, { user_id: star.user.id });
    expect(thread).toMatchObject({ may_write: false, refusal: fill(MSG.messagesFromFollowers, { name: star.user.username }), messages: [] });
    await given().follower(star.user, newcomer);
    await send(newcomer, star, 'Now I follow you');
    // A conversation the star has not written in is not open: once they answer, it is.
    expect((await refusedSend(stranger, star)).status).toBe(403);
    await send(star, stranger, 'Hello to you');
    await send(stranger, star, 'Thanks for answering');

    await star.client.call(api.saveMessageSettings, { audience: 'subscribers' });
    const follower = await given().follower(star.user);
    expect((await refusedSend(follower, star)).body.message).toBe(fill(MSG.messagesFromSubscribers, { name: star.user.username }));
    await subscribed(follower, star);
    await send(follower, star, 'Subscribed!');
  });

  it('lets a creator write to their own followers whatever the followers’ settings, and opens a conversation both wrote in to both', async () => {
    const creator = await given().signedInUser();
    const fan = await given().follower(creator.user);
    const other = await given().signedInUser();
    await fan.client.call(api.saveMessageSettings, { audience: 'subscribers' });
    await send(creator, fan, 'Thanks for the follow!');
    expect((await refusedSend(other, fan)).status).toBe(403);

    // `other` may not write to `fan`, but once `fan` writes to `other`, the conversation is open both ways.
    await send(fan, other, 'Hello other');
    await send(other, fan, 'Hello back');
  });

  it('refuses writing to oneself, to an unknown member, and bad input with the field’s message', async () => {
    const me = await given().signedInUser();
    expect((await refusedSend(me, me)).body.message).toBe(MSG.cannotMessageYourself);
    expect((await me.client.refusal(api.sendMessage, { user_id: 999_999_999, text: 'hi', client_key: key() })).status).toBe(404);
    const other = await given().signedInUser();
    const empty = await refusedSend(me, other, '   ');
    expect([empty.status, empty.body.message]).toEqual([400, MSG.messageOrMedia]);
    expect((await refusedSend(me, other, 'x'.repeat(DM.textMax + 1))).status).toBe(400);
    expect((await me.client.refusal(api.sendMessage, { user_id: other.user.id, text: 'hi', client_key: 'short' })).body.message).toBe(MSG.mustBeClientKey);
    expect((await me.client.refusal(api.saveMessageSettings, { audience: 'nobody' as 'everyone' })).status).toBe(400);
    expect(await db().select().from(directMessages).where(eq(directMessages.senderId, me.user.id))).toEqual([]);
  });
});

describe('a conversation', () => {
  it('reaches both members’ pages at once, counts what is unread and tells the sender when it is read', async () => {
    const fan = await given().signedInUser();
    const creator = await given().signedInUser();
    const fanSocket = await socketOf(fan);
    await fanSocket.request({ op: 'subscribe', channel: userChannelOf(fan.user.id) });
    const creatorSocket = await socketOf(creator);
    await creatorSocket.request({ op: 'subscribe', channel: userChannelOf(creator.user.id) });

    const first = (await send(fan, creator, 'Loved the show tonight!')).message;
    expect(first).toMatchObject({ sender_id: fan.user.id, recipient_id: creator.user.id, text: 'Loved the show tonight!' });
    expect((await creatorSocket.message('DM')).message).toEqual({ type: 'DM', data: { message: first, unread: 1 } });
    expect((await fanSocket.message('DM')).message).toEqual({ type: 'DM', data: { message: first, unread: 0 } });
    const second = (await send(fan, creator, 'When is the next one?')).message;
    expect((await creatorSocket.message('DM')).message).toMatchObject({ data: { message: { id: second.id }, unread: 2 } });
    expect(await creator.client.call(api.unreadMessages, {})).toMatchObject({ unread: 2 });

    const list = await creator.client.call(api.conversations, {});
    expect(list).toMatchObject({ total: 1, conversations: [{ partner: { user_id: fan.user.id, username: fan.user.username, avatar: null }, last_message: second, unread: 2 }] });
    const thread = await creator.client.call(api.thread, { user_id: fan.user.id });
    expect(thread).toMatchObject({ messages: [first, second], more: false, partner_read_id: second.id, may_write: true, refusal: null, blocked_by_me: false });

    expect(await creator.client.call(api.readMessages, { user_id: fan.user.id, message_id: first.id })).toMatchObject({ unread: 1 });
    expect((await fanSocket.message('DM-READ')).message).toEqual({ type: 'DM-READ', data: { reader_id: creator.user.id, partner_id: fan.user.id, last_read_id: first.id } });
    expect(await creator.client.call(api.readMessages, { user_id: fan.user.id, message_id: second.id })).toMatchObject({ unread: 0 });
    expect((await fan.client.call(api.thread, { user_id: creator.user.id })).partner_read_id).toBe(second.id);
    // A message of another conversation is not this one's to mark.
    const elsewhere = await given().signedInUser();
    const foreign = (await send(elsewhere, fan, 'psst')).message;
    expect((await creator.client.refusal(api.readMessages, { user_id: fan.user.id, message_id: foreign.id })).status).toBe(404);

    const reply = (await send(creator, fan, 'Next Friday!')).message;
    expect((await fanSocket.next((f) => f.op === 'message' && (f.message as { type: string }).type === 'DM' && JSON.stringify(f.message).includes('Next Friday'))).message)
      .toMatchObject({ data: { message: reply, unread: 2 } });
  });

  it('sends a repeated client key once', async () => {
    const a = await given().signedInUser();
    const b = await given().signedInUser();
    const clientKey = key();
    const [one, two] = await Promise.all([send(a, b, 'Only once', clientKey), send(a, b, 'Only once', clientKey)]);
    expect(one.message).toEqual(two.message);
    expect((await b.client.call(api.thread, { user_id: a.user.id })).messages).toHaveLength(1);
    expect(await b.client.call(api.unreadMessages, {})).toMatchObject({ unread: 1 });
  });

  it('pages a long thread back, and finds conversations by the member’s name', async () => {
    const me = await seasoned();
    const partners = [await given().signedInUser(), await given().signedInUser()];
    for (let i = 0; i < 5; i += 1) await send(me, partners[0]!, `line ${i}`);
    await send(me, partners[1]!, 'hello');
    const page = await me.client.call(api.thread, { user_id: partners[0]!.user.id, limit: 2 });
    expect([page.messages.map((m) => m.text), page.more]).toEqual([['line 3', 'line 4'], true]);
    const earlier = await me.client.call(api.thread, { user_id: partners[0]!.user.id, limit: 10, before: page.messages[0]!.id });
    expect([earlier.messages.map((m) => m.text), earlier.more]).toEqual([['line 0', 'line 1', 'line 2'], false]);

    const all = await me.client.call(api.conversations, {});
    expect(all.conversations.map((c) => c.partner.user_id)).toEqual([partners[1]!.user.id, partners[0]!.user.id]);
    const found = await me.client.call(api.conversations, { search_text: partners[0]!.user.username.toUpperCase() });
    expect(found.conversations.map((c) => c.partner.user_id)).toEqual([partners[0]!.user.id]);
    expect((await me.client.call(api.conversations, { search_text: '%' })).total).toBe(0);
  });

  it('passes typing on to the other member of an open conversation only', async () => {
    const a = await given().signedInUser();
    const b = await given().signedInUser();
    const aSocket = await socketOf(a);
    await aSocket.request({ op: 'subscribe', channel: userChannelOf(a.user.id) });
    const bSocket = await socketOf(b);
    await bSocket.request({ op: 'subscribe', channel: userChannelOf(b.user.id) });
    // Before the first message there is no one to tell: the page is answered and nothing goes out.
    expect(await aSocket.request({ op: 'send', channel: userChannelOf(a.user.id), id: 't0', type: 'DM-TYPING', to: b.user.id })).toEqual({ op: 'ack', id: 't0' });
    await send(a, b, 'hi');
    expect(await aSocket.request({ op: 'send', channel: userChannelOf(a.user.id), id: 't1', type: 'DM-TYPING', to: b.user.id })).toEqual({ op: 'ack', id: 't1' });
    expect((await bSocket.message('DM-TYPING')).message).toEqual({ type: 'DM-TYPING', data: { user_id: a.user.id } });
    // Only on one's own channel.
    const elsewhere = await aSocket.request({ op: 'send', channel: userChannelOf(b.user.id), id: 't2', type: 'DM-TYPING', to: b.user.id });
    expect(elsewhere).toMatchObject({ op: 'error', id: 't2' });
  });
});

describe('blocks, limits and reports', () => {
  it('keeps both members of a block from writing, until it is lifted', async () => {
    const a = await given().signedInUser();
    const b = await given().signedInUser();
    await send(a, b, 'hi');
    expect(await b.client.call(api.blockMember, { user_id: a.user.id, block: true })).toMatchObject({ blocked: true });
    expect((await refusedSend(a, b)).body.message).toBe(MSG.messagingBlocked);
    expect((await refusedSend(b, a)).body.message).toBe(MSG.messagingBlocked);
    expect(await b.client.call(api.thread, { user_id: a.user.id })).toMatchObject({ blocked_by_me: true, may_write: false });
    expect(await a.client.call(api.thread, { user_id: b.user.id })).toMatchObject({ blocked_by_me: false, may_write: false, refusal: MSG.messagingBlocked });
    await b.client.call(api.blockMember, { user_id: a.user.id, block: false });
    await send(a, b, 'friends again?');
    expect((await a.client.refusal(api.blockMember, { user_id: a.user.id, block: true })).status).toBe(403);
    expect((await a.client.refusal(api.blockMember, { user_id: 999_999_999, block: true })).status).toBe(404);
  });

  it(`holds a sender to ${DM.perMinute} messages a minute, and a new account to ${DM.newAccountConversations} new conversations a day`, async () => {
    const chatty = await seasoned();
    const partner = await given().signedInUser();
    for (let i = 0; i < DM.perMinute; i += 1) await send(chatty, partner, `message ${i}`);
    const refused = await refusedSend(chatty, partner);
    expect([refused.status, refused.body.message]).toEqual([429, MSG.messagingTooFast]);

    const newcomer = await given().signedInUser();
    const partners = await Promise.all(Array.from({ length: DM.newAccountConversations + 1 }, () => given().signedInUser()));
    for (const p of partners.slice(0, -1)) await send(newcomer, p, 'hello');
    const sixth = await refusedSend(newcomer, partners.at(-1)!);
    expect([sixth.status, sixth.body.message]).toEqual([429, fill(MSG.newAccountConversations, { count: DM.newAccountConversations })]);
    // Conversations already started go on.
    await send(newcomer, partners[0]!, 'again');
  });

  it('puts a reported message in the console’s queue, where a moderator removes it from the conversation', async () => {
    const sender = await given().signedInUser();
    const recipient = await given().signedInUser();
    const rude = (await send(sender, recipient, 'a rude message')).message;
    expect((await sender.client.refusal(api.reportMessage, { message_id: rude.id, type: 'troll' })).body.message).toBe(MSG.cannotReportOwnMessage);
    const outsider = await given().signedInUser();
    expect((await outsider.client.refusal(api.reportMessage, { message_id: rude.id, type: 'troll' })).status).toBe(404);
    await recipient.client.call(api.reportMessage, { message_id: rude.id, type: 'troll', user_comment: 'keeps doing it' });

    const { admin } = await given().moderators();
    const queue = await admin.client.call(consoleApi.reports, {});
    expect(queue.reports).toContainEqual(expect.objectContaining({
      kind: 'direct-message', item_id: rude.id, type: 'troll', comment: 'keeps doing it', preview: 'a rude message', item_state: 'shown',
      reporter: { user_id: recipient.user.id, username: recipient.user.username }, owner: { user_id: sender.user.id, username: sender.user.username },
    }));
    expect(await admin.client.call(consoleApi.reportAction, { kind: 'direct-message', item_id: rude.id, action: 'DELETE' })).toMatchObject({ handled: 1 });
    expect((await recipient.client.call(api.thread, { user_id: sender.user.id })).messages).toEqual([]);
    const audit = await db().execute(sql`select action, target_type, before, after from audit_log where target_id = ${String(rude.id)} and target_type = 'direct-message'`);
    expect(audit.rows).toEqual([{ action: 'direct-message.delete', target_type: 'direct-message', before: { sender_id: sender.user.id, recipient_id: recipient.user.id }, after: { deleted: true } }]);
  });
});

describe('messages to many', () => {
  const sentToMany = (creator: SignedInUser, input: Partial<{ audience: 'followers' | 'subscribers'; plan_id: number; text: string; client_key: string }> = {}) =>
    creator.client.call(api.sendToMany, { audience: 'followers', text: 'Thank you all!', client_key: key(), ...input });
  const delivered = async (creator: SignedInUser, broadcastId: number) => {
    await expect.poll(async () => (await creator.client.call(api.broadcasts, {})).broadcasts.find((b) => b.broadcast_id === broadcastId)?.state, { timeout: 15_000 }).toBe('done');
    return (await creator.client.call(api.broadcasts, {})).broadcasts.find((b) => b.broadcast_id === broadcastId)!;
  };

  it('reaches every follower once as their own conversation, leaving out blocks and those who take no messages to many', async () => {
    const creator = await given().signedInUser();
    const [fan, other, blocker, quiet] = [await given().follower(creator.user), await given().follower(creator.user), await given().follower(creator.user), await given().follower(creator.user)];
    await blocker.client.call(api.blockMember, { user_id: creator.user.id, block: true });
    await quiet.client.call(api.saveMessageSettings, { audience: 'everyone', bulk: false });
    expect((await quiet.client.call(api.getMessageSettings, {})).settings).toEqual({ audience: 'everyone', bulk: false });
    await creator.client.call(api.saveMessageSettings, { audience: 'subscribers', bulk: true });
    const fanSocket = await socketOf(fan);
    await fanSocket.request({ op: 'subscribe', channel: userChannelOf(fan.user.id) });

    const { broadcast } = await sentToMany(creator, { text: 'New set tonight!' });
    expect(broadcast).toMatchObject({ audience: 'followers', plan_id: null, text: 'New set tonight!', state: 'sending', delivered: 0, read: 0 });
    expect((await fanSocket.message('DM', 15_000)).message).toMatchObject({ data: { message: { sender_id: creator.user.id, recipient_id: fan.user.id, text: 'New set tonight!' }, unread: 1 } });
    expect(await delivered(creator, broadcast.broadcast_id)).toMatchObject({ delivered: 2, read: 0 });
    for (const left of [blocker, quiet]) expect((await left.client.call(api.thread, { user_id: creator.user.id })).messages).toEqual([]);

    const thread = await fan.client.call(api.thread, { user_id: creator.user.id });
    expect(thread.messages.map((m) => m.text)).toEqual(['New set tonight!']);
    await fan.client.call(api.readMessages, { user_id: creator.user.id, message_id: thread.messages[0]!.id });
    expect((await creator.client.call(api.broadcasts, {})).broadcasts[0]).toMatchObject({ delivered: 2, read: 1 });
    // The creator wrote first: their fans may answer whatever the creator's setting.
    await send(other, creator, 'Can’t wait!');
    expect((await creator.client.call(api.conversations, {})).total).toBe(2);
  });

  it('reaches the subscribers of one plan, and refuses others’ plans, non-creators and a sixth sending in a day', async () => {
    const creator = await given().signedInUser();
    const { templates } = await creator.client.call(subscriptionsApi.planTemplates, {});
    const planOf = async (i: number) => (await creator.client.call(subscriptionsApi.planAdd, { template_id: templates[i]!.template_id, price: templates[i]!.prices[0]!.price, currency: 'CON' })).plan;
    const [first, second] = [await planOf(0), await planOf(1)];
    const subscriberOf = async (plan: { plan_id: number; price: number }) => {
      const fan = await given().signedInUser();
      await given().coins(fan.user, plan.price);
      const res = await fan.client.request('POST', subscriptionsApi.subscribe.path, {
        body: { plan_id: plan.plan_id, user_id: creator.user.id, auto_renew: false }, headers: { 'idempotency-key': key() },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return fan;
    };
    const [firsts, seconds] = [await subscriberOf(first), await subscriberOf(second)];
    const clientKey = key();
    const { broadcast } = await sentToMany(creator, { audience: 'subscribers', plan_id: first.plan_id, text: 'For my first tier', client_key: clientKey });
    expect((await sentToMany(creator, { audience: 'subscribers', plan_id: first.plan_id, text: 'For my first tier', client_key: clientKey })).broadcast.broadcast_id).toBe(broadcast.broadcast_id);
    expect(await delivered(creator, broadcast.broadcast_id)).toMatchObject({ delivered: 1 });
    expect((await firsts.client.call(api.unreadMessages, {})).unread).toBe(1);
    expect((await seconds.client.call(api.unreadMessages, {})).unread).toBe(0);

    const stranger = await given().signedInUser();
    const notMine = await stranger.client.refusal(api.sendToMany, { audience: 'subscribers', plan_id: first.plan_id, text: 'hi', client_key: key() });
    expect([notMine.status, notMine.body.message]).toEqual([404, MSG.planNotYours]);
    const fanOnly = await given().signedInUser({ perms: ['CREATE STREAM_CHAT'] });
    const refused = await fanOnly.client.refusal(api.sendToMany, { audience: 'followers', text: 'hi', client_key: key() });
    expect([refused.status, refused.body.message]).toEqual([403, MSG.broadcastsCreatorsOnly]);
    for (let i = 1; i < BROADCASTS_PER_DAY; i += 1) await sentToMany(creator);
    const sixth = await creator.client.refusal(api.sendToMany, { audience: 'followers', text: 'hi', client_key: key() });
    expect([sixth.status, sixth.body.message]).toEqual([429, fill(MSG.broadcastsPerDay, { count: BROADCASTS_PER_DAY })]);
  });

  it('delivers batch by batch: two deliverers at once, and one taking over a lapsed claim, write each recipient’s message once', async () => {
    const creator = await given().signedInUser();
    const fans = await Promise.all(Array.from({ length: 7 }, () => given().follower(creator.user)));
    // The app's own job and two more deliverers with batches of 2, all at once.
    const deliverer = () => createBroadcastDelivery({
      db: db(), audienceSql: (senderId) => followersSql(senderId), publish: async () => undefined, media: createMessageMedia({ db: db() }), log: { warn: () => undefined }, batchSize: 2,
    });
    const { broadcast } = await sentToMany(creator, { text: 'Batch by batch' });
    await Promise.all([deliverer().deliver(), deliverer().deliver()]);
    // A deliverer killed after committing a batch (its first recipient's message, the cursor past them) left its
    // claim to lapse; the next one goes on from the cursor.
    const second = (await sentToMany(creator, { text: 'After a crash' })).broadcast;
    const [firstFan] = [...fans.map((f) => f.user.id)].sort((a, b) => a - b);
    await db().update(messageBroadcasts).set({ cursor: firstFan!, delivered: 1, claimedUntil: new Date(Date.now() + 60_000) }).where(eq(messageBroadcasts.id, second.broadcast_id));
    await db().execute(sql`insert into direct_messages (conversation_id, sender_id, recipient_id, body, client_key, broadcast_id)
      select c.id, ${creator.user.id}, ${firstFan!}, 'After a crash', 'broadcast-' || ${second.broadcast_id} || '-' || ${firstFan!}, ${second.broadcast_id}
      from conversations c where c.low_id = least(${creator.user.id}::bigint, ${firstFan!}::bigint) and c.high_id = greatest(${creator.user.id}::bigint, ${firstFan!}::bigint)`);
    await db().execute(sql`update conversation_members set unread = unread + 1 where user_id = ${firstFan!} and partner_id = ${creator.user.id}`);
    await db().update(messageBroadcasts).set({ claimedUntil: new Date(Date.now() - 1) }).where(eq(messageBroadcasts.id, second.broadcast_id));
    await deliverer().deliver();
    await delivered(creator, broadcast.broadcast_id);
    await delivered(creator, second.broadcast_id);

    const { rows } = await db().execute<{ recipient_id: string; n: number }>(sql`select recipient_id, count(*)::int as n from direct_messages
      where broadcast_id in (${broadcast.broadcast_id}, ${second.broadcast_id}) group by recipient_id, broadcast_id`);
    expect(rows).toHaveLength(14);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    for (const fan of fans) expect((await fan.client.call(api.unreadMessages, {})).unread).toBe(2);
  });
});

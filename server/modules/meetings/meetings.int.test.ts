import { describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { meetingChannelOf, userChannelOf } from '../../../common/realtime';
import { listMail } from '../../platform/mail/outbox';
import { eventually } from '../../testing/eventually';
import type { SignedInUser } from '../../testing/harness';
import { useListeningTestApp } from '../../testing/listening-app';
import { expectLedgerInvariants } from '../../testing/ledger-invariants';
import type { WsClient } from '../../testing/ws-client';

const served = useListeningTestApp();
const { socketOf } = served;

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
let keys = 0;
const key = () => `meeting-key-${process.pid}-${(keys += 1)}`;
let frames = 0;
const frameId = () => `m${(frames += 1)}`;

/** A host with `n` followers (signed in), and a stranger who follows no one. */
async function party(n: number) {
  const host = await served.t.given.signedInUser();
  const fans: SignedInUser[] = [];
  for (let i = 0; i < n; i += 1) fans.push(await served.t.given.follower(host.user));
  return { host, fans, stranger: await served.t.given.signedInUser() };
}

async function createMeeting(host: SignedInUser, inviteeIds: number[], extra: Record<string, unknown> = {}) {
  const res = await host.client.post('/api/user/create-meeting', {
    audience: 'PRIVATE', audience_ids: inviteeIds.join(','), category_id: 2, title: 'Evening call', pwd: '', tip_class: 'NORMAL',
    start_time: inAnHour(), tip_rules: { currency: 'CON', viewer_min_amount: 250 }, timezone: 'Europe/Paris', ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as { meeting_id: number }).meeting_id;
}

const pay = (who: SignedInUser, id: number, amount: number, idempotencyKey = key()) =>
  who.client.request('POST', '/api/user/pay-meeting', { body: { id, amount }, headers: { 'idempotency-key': idempotencyKey } });

/** A participant in the room: their own user channel and the meeting's channel. */
async function enter(who: SignedInUser, id: number) {
  const socket = await socketOf(who);
  expect(await socket.request({ op: 'subscribe', channel: userChannelOf(who.user.id) })).toMatchObject({ op: 'subscribed' });
  expect(await socket.request({ op: 'subscribe', channel: meetingChannelOf(id) })).toMatchObject({ op: 'subscribed' });
  return socket;
}

type Participants = { meeting_id: number; host_present: boolean; participants: Array<{ user_id: number; is_host: boolean; paid: boolean }> };

/** The next PARTICIPANTS frame that lists exactly these people. */
async function participantsListing(socket: WsClient, userIds: number[]) {
  const want = [...userIds].sort((a, b) => a - b).join(',');
  const frame = await socket.next((f) => {
    const message = f.message as { type?: string; data?: Participants } | undefined;
    return message?.type === 'PARTICIPANTS' && message.data!.participants.map((p) => p.user_id).sort((a, b) => a - b).join(',') === want;
  }, 8000);
  return (frame.message as { data: Participants }).data;
}

describe('the meeting form and calendar', () => {
  it('creates a meeting with followers, lists it for the host and the invitees, mails them, and shows its detail', async () => {
    const { host, fans, stranger } = await party(2);
    const id = await createMeeting(host, fans.map((f) => f.user.id), { tip_rules: { currency: 'CON', viewer_min_amount: 251 } });

    const mine = await host.client.get('/api/user/schedule-meetings');
    expect(mine.body.meetings).toEqual([expect.objectContaining({
      meeting_id: id, stream_id: id, title: 'Evening call', state: 'scheduled', is_creator: true, creator_user_id: host.user.id,
      audience_ids: fans.map((f) => f.user.id),
    })]);
    const theirs = await fans[0]!.client.get('/api/user/schedule-meetings');
    expect(theirs.body.meetings).toEqual([expect.objectContaining({ meeting_id: id, is_creator: false, is_following: true })]);
    expect((await stranger.client.get('/api/user/schedule-meetings')).body.meetings).toEqual([]);

    const detail = await fans[1]!.client.get('/api/user/schedule-meeting', { id });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({
      id, title: 'Evening call', state: 'scheduled', timezone: 'Europe/Paris', tip_rule: { viewer_min_amount: 260 }, host: false,
      audience_ids: fans.map((f) => f.user.id), creator: { id: host.user.id, email: host.user.email },
    });
    const data = detail.body.data as { start_time: string; end_time: string };
    expect(Date.parse(data.end_time) - Date.parse(data.start_time)).toBe(30 * 60_000);

    // The invitation is a notification: its mail goes out through the delivery job, moments later.
    const mail = await eventually(() => listMail(served.t.resources.database.db, { to: fans[0]!.user.email, limit: 5 }), (found) => found.length > 0);
    expect(mail[0]).toMatchObject({ subject: `${host.user.username} invited you to a video call` });
    expect(mail[0]!.text).toContain('"Evening call"');

    const outsider = await stranger.client.get('/api/user/schedule-meeting', { id });
    expect(outsider.status).toBe(404);
    expect(outsider.body.message).toBe(MSG.meetingUnavailable);
  });

  it('counts new invitations for the side bar until the invitee opens the calendar', async () => {
    const { host, fans } = await party(1);
    const fan = fans[0]!;
    const newCount = async (who: SignedInUser) => (await who.client.get('/api/user/meeting-invitations')).body.count as number;
    expect(await newCount(fan)).toBe(0);
    await createMeeting(host, [fan.user.id]);
    await createMeeting(host, [fan.user.id]);
    expect(await newCount(fan)).toBe(2);
    expect(await newCount(host)).toBe(0);
    expect((await fan.client.get('/api/user/schedule-meetings')).status).toBe(200);
    expect(await newCount(fan)).toBe(0);
    const third = await createMeeting(host, [fan.user.id]);
    expect(await newCount(fan)).toBe(1);
    expect((await host.client.post('/api/user/delete-schedule-meeting', { id: third })).status).toBe(200);
    expect(await newCount(fan)).toBe(0);
  });

  it('rounds the meeting tip up to a multiple of 10 within 250..5000, 250 by default', async () => {
    const { host, fans } = await party(1);
    const tipOf = async (tipRules: Record<string, unknown>) => {
      const id = await createMeeting(host, [fans[0]!.user.id], { tip_rules: tipRules });
      return ((await host.client.get('/api/user/schedule-meeting', { id })).body.data as { tip_rule: { viewer_min_amount: number } }).tip_rule.viewer_min_amount;
    };
    expect(await tipOf({ currency: 'CON' })).toBe(250);
    expect(await tipOf({ currency: 'CON', viewer_min_amount: 10 })).toBe(250);
    expect(await tipOf({ currency: 'CON', viewer_min_amount: 1234 })).toBe(1240);
    expect(await tipOf({ currency: 'CON', viewer_min_amount: 9999 })).toBe(5000);
  });

  it("refuses the spec's invalid forms: a short title, no or eleven invitees, a past time, a non-follower", async () => {
    const { host, fans, stranger } = await party(11);
    const base = { audience: 'PRIVATE', audience_ids: String(fans[0]!.user.id), title: 'Evening call', start_time: inAnHour() };
    const refused = async (body: Record<string, unknown>, status: number, message: string) => {
      const res = await host.client.post('/api/user/create-meeting', { ...base, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.message).toBe(message);
    };
    await refused({ title: 'ab' }, 400, MSG.titleRequired);
    await refused({ title: undefined }, 400, MSG.titleRequired);
    await refused({ audience_ids: '' }, 400, MSG.chooseRecipient);
    await refused({ audience_ids: fans.map((f) => f.user.id).join(',') }, 400, MSG.maxInviteExceeded);
    await refused({ start_time: new Date(Date.now() - 10 * 60_000).toISOString() }, 400, MSG.validDateTime);
    await refused({ start_time: 'tomorrow' }, 400, MSG.validDateTime);
    await refused({ audience_ids: `${fans[0]!.user.id},${stranger.user.id}` }, 403, MSG.meetingInviteFollowersOnly);
    // A minute of clock skew is taken as now.
    const res = await host.client.post('/api/user/create-meeting', { ...base, start_time: new Date(Date.now() - 60_000).toISOString() });
    expect(res.status).toBe(200);
    expect((await host.client.get('/api/user/schedule-meetings')).body.meetings).toHaveLength(1);
  });

  it('lets the host alone update and delete; newly invited people are told; an ended meeting cannot change', async () => {
    const { host, fans, stranger } = await party(3);
    const id = await createMeeting(host, [fans[0]!.user.id]);
    const params = { audience: 'PRIVATE', audience_ids: `${fans[1]!.user.id},${fans[2]!.user.id}`, title: 'Later call', start_time: inAnHour() };
    expect((await fans[0]!.client.post('/api/user/update-schedule-meeting', { id, params })).status).toBe(403);
    expect((await stranger.client.post('/api/user/update-schedule-meeting', { id, params })).status).toBe(404);
    const updated = await host.client.post('/api/user/update-schedule-meeting', { id, params });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toEqual({ meeting_id: id });
    expect((await host.client.get('/api/user/schedule-meeting', { id })).body.data).toMatchObject({
      title: 'Later call', audience_ids: [fans[1]!.user.id, fans[2]!.user.id],
    });
    expect((await fans[0]!.client.get('/api/user/schedule-meeting', { id })).status).toBe(404);
    // The invitation goes out by the delivery job, soon after the answer.
    expect(await eventually(() => listMail(served.t.resources.database.db, { to: fans[2]!.user.email, limit: 5 }), (found) => found.length > 0)).toHaveLength(1);

    expect((await fans[1]!.client.post('/api/user/delete-schedule-meeting', { id })).status).toBe(403);
    const deleted = await host.client.post('/api/user/delete-schedule-meeting', { id });
    expect(deleted.body).toEqual({ response: 'success', message: MSG.meetingDeleted });
    expect((await fans[1]!.client.get('/api/user/schedule-meeting', { id })).status).toBe(404);
    expect((await host.client.get('/api/user/schedule-meetings')).body.meetings).toEqual([]);

    const other = await createMeeting(host, [fans[1]!.user.id]);
    expect((await host.client.post('/api/user/end-meeting', { id: other })).status).toBe(200);
    const late = await host.client.post('/api/user/update-schedule-meeting', { id: other, params });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(MSG.meetingIsOver);
  });
});

describe('a deleted account', () => {
  it('takes its hosted meetings and its invitations with it', async () => {
    const { host, fans } = await party(2);
    const [staying, leaving] = fans as [SignedInUser, SignedInUser];
    const id = await createMeeting(host, [staying.user.id, leaving.user.id]);
    // The meetings module's clean-up follows each deletion from the event outbox, at once.
    expect((await leaving.client.post('/api/user/delete-account', { id: leaving.user.id, current_password: leaving.user.password })).status).toBe(200);
    const invited = async () => ((await host.client.get('/api/user/schedule-meeting', { id })).body.data as { audience_ids: number[] }).audience_ids;
    expect(await eventually(invited, (ids) => ids.length === 1)).toEqual([staying.user.id]);
    expect((await host.client.post('/api/user/delete-account', { id: host.user.id, current_password: host.user.password })).status).toBe(200);
    expect(await eventually(async () => (await staying.client.get('/api/user/schedule-meeting', { id })).status, (status) => status === 404)).toBe(404);
    expect((await staying.client.get('/api/user/schedule-meetings')).body.meetings).toEqual([]);
  });
});

describe('the meeting room', () => {
  it('joins, pays once per key with the books balanced, and gives the host the whole tip (0 % fee)', async () => {
    const { host, fans, stranger } = await party(2);
    const [payer, poor] = fans as [SignedInUser, SignedInUser];
    const id = await createMeeting(host, [payer.user.id, poor.user.id], { tip_rules: { currency: 'CON', viewer_min_amount: 300 } });
    expect((await stranger.client.post('/api/user/join-meeting', { id })).status).toBe(404);

    const before = await payer.client.post('/api/user/join-meeting', { id });
    expect(before.status).toBe(200);
    expect(before.body.data).toMatchObject({ paid: false, owed: 300, host_present: false, conference_kind: 'builtin', conference: null, meeting: { id, host: false } });
    const hosted = await host.client.post('/api/user/join-meeting', { id });
    expect(hosted.body.data).toMatchObject({ paid: true, owed: 0, host_present: true, meeting: { state: 'live', host: true } });

    await served.t.given.coins(payer.user, 1000);
    const k = key();
    const first = await pay(payer, id, 300, k);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ paid: true, owed: 0, balance: { CON: 700 } });
    const again = await pay(payer, id, 300, k);
    expect(again.body).toMatchObject({ paid: true, owed: 0, balance: { CON: 700 } });
    expect((await payer.client.post('/api/user/join-meeting', { id })).body.data).toMatchObject({ paid: true, conference: { kind: 'builtin', ice_servers: [] } });
    expect((await served.t.app.services.ledger.balances(host.user.id)).CON).toBe(300);
    await expectLedgerInvariants(served.t.resources.database.db);

    const short = await pay(poor, id, 300);
    expect(short.status).toBe(402);
    expect(short.body.response).toBe('insufficient_funds');
    expect((await pay(host, id, 300)).status).toBe(403);
    expect((await pay(stranger, id, 300)).status).toBe(404);
    expect((await poor.client.post('/api/user/join-meeting', { id })).body.data).toMatchObject({ paid: false, owed: 300 });
  });

  it('refunds what guests paid for a call that never went live when they are removed or it is deleted; a live call keeps it', async () => {
    const { host, fans } = await party(3);
    const [kept, dropped, late] = fans as [SignedInUser, SignedInUser, SignedInUser];
    const id = await createMeeting(host, [kept.user.id, dropped.user.id]);
    for (const fan of [kept, dropped]) {
      await served.t.given.coins(fan.user, 400);
      expect((await pay(fan, id, 250)).status).toBe(200);
    }
    const balance = async (who: SignedInUser) => (await served.t.app.services.ledger.balances(who.user.id)).CON;
    expect(await balance(host)).toBe(500);

    const params = { title: 'Evening call', audience_ids: String(kept.user.id), start_time: inAnHour(), tip_rules: { viewer_min_amount: 250 } };
    expect((await host.client.post('/api/user/update-schedule-meeting', { id, params })).status).toBe(200);
    expect(await balance(dropped)).toBe(400);
    expect(await balance(host)).toBe(250);

    // A host who spent the coins cannot delete the call: the guest would lose them.
    await served.t.app.services.ledger.transfer({
      kind: 'adjustment', idempotencyKey: key(), fromUserId: host.user.id, amount: 250, currency: 'CON',
      legs: [{ account: { userId: host.user.id, currency: 'CON' }, amount: -250 }, { account: { system: 'fees', currency: 'CON' }, amount: 250 }],
    });
    const refused = await host.client.post('/api/user/delete-schedule-meeting', { id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(MSG.meetingRefundShort);
    expect((await kept.client.post('/api/user/join-meeting', { id })).body.data).toMatchObject({ paid: true });

    await served.t.given.coins(host.user, 250);
    expect((await host.client.post('/api/user/delete-schedule-meeting', { id })).status).toBe(200);
    expect(await balance(kept)).toBe(400);
    expect(await balance(host)).toBe(0);
    expect((await host.client.post('/api/user/delete-schedule-meeting', { id })).status).toBe(404);
    expect(await balance(kept)).toBe(400);

    const live = await createMeeting(host, [late.user.id]);
    expect((await host.client.post('/api/user/join-meeting', { id: live })).status).toBe(200);
    await served.t.given.coins(late.user, 250);
    expect((await pay(late, live, 250)).status).toBe(200);
    expect((await host.client.post('/api/user/delete-schedule-meeting', { id: live })).status).toBe(200);
    expect(await balance(late)).toBe(0);
    expect(await balance(host)).toBe(250);
    await expectLedgerInvariants(served.t.resources.database.db);
  });

  it('lets only participants subscribe, tells who is in the room, and passes signals between paid participants only', async () => {
    const { host, fans, stranger } = await party(2);
    const [paid, unpaid] = fans as [SignedInUser, SignedInUser];
    const id = await createMeeting(host, [paid.user.id, unpaid.user.id]);
    const channel = meetingChannelOf(id);
    await served.t.given.coins(paid.user, 250);
    expect((await pay(paid, id, 250)).status).toBe(200);

    const outsider = await socketOf(stranger);
    expect(await outsider.request({ op: 'subscribe', channel })).toMatchObject({ op: 'error', code: 'forbidden' });
    const guest = await served.socketOf();
    expect(await guest.request({ op: 'subscribe', channel })).toMatchObject({ op: 'error', code: 'unauthorized' });

    const h = await enter(host, id);
    const hostAlone = await participantsListing(h, [host.user.id]);
    expect(hostAlone).toMatchObject({ meeting_id: id, host_present: true, participants: [{ user_id: host.user.id, is_host: true, paid: true }] });
    const p = await enter(paid, id);
    const u = await enter(unpaid, id);
    const everyone = await participantsListing(h, [host.user.id, paid.user.id, unpaid.user.id]);
    expect(everyone.participants.find((x) => x.user_id === paid.user.id)).toMatchObject({ is_host: false, paid: true });
    expect(everyone.participants.find((x) => x.user_id === unpaid.user.id)).toMatchObject({ paid: false });

    const offer = { description: { type: 'offer', sdp: 'v=0\r\n' } };
    const send = (socket: WsClient, to: number) => socket.request({ op: 'send', channel, id: frameId(), type: 'SIGNAL', to, signal: offer });
    expect(await send(h, paid.user.id)).toMatchObject({ op: 'ack' });
    const got = await p.message('SIGNAL');
    expect(got).toMatchObject({ channel: userChannelOf(paid.user.id), message: { type: 'SIGNAL', data: { meeting_id: id, from: host.user.id, signal: offer } } });
    expect(await send(p, host.user.id)).toMatchObject({ op: 'ack' });
    expect((await h.message('SIGNAL')).message).toMatchObject({ data: { from: paid.user.id } });

    expect(await send(u, host.user.id)).toMatchObject({ op: 'error', code: 'forbidden', message: MSG.meetingPayFirst });
    expect(await send(h, unpaid.user.id)).toMatchObject({ op: 'error', code: 'forbidden', message: MSG.meetingPeerAbsent });
    expect(await send(outsider, host.user.id)).toMatchObject({ op: 'error', code: 'forbidden' });
    expect(await send(guest, host.user.id)).toMatchObject({ op: 'error', code: 'unauthorized' });

    // Chat and likes in the room; a late subscriber gets the chat history.
    expect(await p.request({ op: 'send', channel, id: frameId(), type: 'COMMENT', text: 'hello host' })).toMatchObject({ op: 'ack' });
    expect((await h.message('COMMENT')).message).toMatchObject({ text: 'hello host', sender: { user_id: paid.user.id, is_owner: false } });
    expect(await p.request({ op: 'send', channel, id: frameId(), type: 'LIKE', likes: 1 })).toMatchObject({ op: 'ack' });
    expect((await h.message('LIKE')).message).toMatchObject({ likes: 1 });

    // Paying announces a tip line and the new paid state.
    await served.t.given.coins(unpaid.user, 250);
    expect((await pay(unpaid, id, 250)).status).toBe(200);
    expect((await h.message('TIP')).message).toMatchObject({ data: { recipient_amount: 250 } });
    const afterPay = await h.next((f) => {
      const data = (f.message as { type?: string; data?: Participants } | undefined)?.data;
      return (f.message as { type?: string }).type === 'PARTICIPANTS' && data!.participants.some((x) => x.user_id === unpaid.user.id && x.paid);
    }, 8000);
    expect(afterPay).toBeDefined();
    expect(await send(h, unpaid.user.id)).toMatchObject({ op: 'ack' });

    u.close();
    const left = await participantsListing(h, [host.user.id, paid.user.id]);
    expect(left.host_present).toBe(true);
    h.close();
    const hostGone = await participantsListing(p, [paid.user.id]);
    expect(hostGone.host_present).toBe(false);
    expect(await send(p, host.user.id)).toMatchObject({ op: 'error', message: MSG.meetingPeerAbsent });

    const late = await socketOf(paid);
    const subscribed = await late.request({ op: 'subscribe', channel });
    expect(subscribed.history).toEqual([expect.objectContaining({ type: 'COMMENT', text: 'hello host' })]);
  });

  it('lets the host kick a participant, who is sent out and cannot come back', async () => {
    const { host, fans } = await party(2);
    const [kept, kicked] = fans as [SignedInUser, SignedInUser];
    const id = await createMeeting(host, [kept.user.id, kicked.user.id]);
    const h = await enter(host, id);
    const k = await enter(kicked, id);
    await participantsListing(h, [host.user.id, kicked.user.id]);
    expect((await kept.client.post('/api/user/kick-meeting-participant', { id, user_id: kicked.user.id })).status).toBe(403);
    expect((await host.client.post('/api/user/kick-meeting-participant', { id, user_id: host.user.id })).status).toBe(404);
    expect((await host.client.post('/api/user/kick-meeting-participant', { id, user_id: kicked.user.id })).status).toBe(200);
    const frame = await k.next((f) => f.channel === userChannelOf(kicked.user.id) && (f.message as { type?: string } | undefined)?.type === 'KICKED');
    expect(frame.message).toEqual({ type: 'KICKED', data: { meeting_id: id } });
    // Their sockets leave the room: the others see them gone.
    expect(await participantsListing(h, [host.user.id])).toMatchObject({ host_present: true });
    const again = await kicked.client.post('/api/user/join-meeting', { id });
    expect(again.status).toBe(403);
    expect(again.body.message).toBe(MSG.meetingKickedOut);
    expect(await k.request({ op: 'subscribe', channel: meetingChannelOf(id) })).toMatchObject({ op: 'error', code: 'forbidden' });
  });

  it("ends the call with 'Meeting End' and MEETING-END; then participants rate, report and save it", async () => {
    const { host, fans, stranger } = await party(1);
    const guest = fans[0]!;
    const id = await createMeeting(host, [guest.user.id]);
    const g = await enter(guest, id);
    expect((await guest.client.post('/api/user/rate-meeting', { id, rating: 5 })).status).toBe(409);
    expect((await guest.client.post('/api/user/end-meeting', { id })).status).toBe(403);
    expect((await stranger.client.post('/api/user/end-meeting', { id })).status).toBe(404);
    expect((await host.client.post('/api/user/end-meeting', { id })).status).toBe(200);
    const line = await g.message('COMMENT');
    expect(line.message).toMatchObject({ text: 'Meeting End', sender: { user_id: host.user.id, is_owner: true } });
    expect((await g.message('MEETING-END')).message).toEqual({ type: 'MEETING-END', data: { meeting_id: id } });
    expect((await host.client.post('/api/user/end-meeting', { id })).status).toBe(409);
    expect((await guest.client.post('/api/user/join-meeting', { id })).status).toBe(409);
    expect(await g.request({ op: 'subscribe', channel: meetingChannelOf(id) })).toMatchObject({ op: 'error', code: 'conflict' });

    expect((await guest.client.post('/api/user/rate-meeting', { id, rating: 4 })).status).toBe(200);
    expect((await guest.client.post('/api/user/rate-meeting', { id, rating: 5 })).status).toBe(200);
    expect((await host.client.post('/api/user/rate-meeting', { id, rating: 5 })).status).toBe(403);
    const report = await guest.client.post('/api/user/report-meeting', { id, type: 'troll', user_comment: 'rude' });
    expect(report.body).toEqual({ response: 'success', message: MSG.complaintFiled });
    expect((await stranger.client.post('/api/user/report-meeting', { id, type: 'troll' })).status).toBe(404);
    expect((await guest.client.post('/api/user/save-meeting', { id, save: true })).body).toEqual({ response: 'success', saved: true });
    expect((await guest.client.post('/api/user/save-meeting', { id, save: false })).body).toEqual({ response: 'success', saved: false });
    expect((await host.client.post('/api/user/save-meeting', { id, save: true })).status).toBe(403);
  });
});

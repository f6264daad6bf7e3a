/**
 * Toy-device access through HTTP and the realtime gateway, with the simulated provider: every event of
 * lovense-action and its refusals, the money through the ledger, control and the hang-ups, in a meeting
 * and on a live stream.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TOY } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { meetingChannelOf, streamChannelOf, userChannelOf } from '../../../common/realtime';
import { checkConservation, conservationViolations } from '../ledger/conservation';
import { coinChanges, coinHoldings } from '../../testing/coin-holdings';
import type { SignedInUser } from '../../testing/harness';
import { eventually } from '../../testing/eventually';
import { useListeningTestApp } from '../../testing/listening-app';
import type { Frame, WsClient } from '../../testing/ws-client';

const served = useListeningTestApp();

let keys = 0;
const key = () => `toy-key-${process.pid}-${(keys += 1)}`;
let frames = 0;
const frameId = () => `toy${(frames += 1)}`;

type Rec = Record<string, unknown> & { access: string; broadcaster_state: string; viewer_state: string; qr_data: { qr: string; code: string } | null };

interface Room {
  host: SignedInUser;
  viewers: SignedInUser[];
  stranger: SignedInUser;
  where: { stream_id: number; room: 'meeting' | 'stream' };
  channel: string;
}

/** A meeting with its host and `n` invited followers (each with 1000 coins), and a stranger. */
async function meetingRoom(n = 2, coins = 1000): Promise<Room> {
  const host = await served.t.given.signedInUser();
  const viewers: SignedInUser[] = [];
  for (let i = 0; i < n; i += 1) {
    const fan = await served.t.given.follower(host.user);
    if (coins > 0) await served.t.given.coins(fan.user, coins);
    viewers.push(fan);
  }
  const res = await host.client.post('/api/user/create-meeting', {
    audience: 'PRIVATE', audience_ids: viewers.map((v) => v.user.id).join(','), title: 'Toy call', start_time: new Date(Date.now() + 3_600_000).toISOString(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = (res.body.data as { meeting_id: number }).meeting_id;
  return { host, viewers, stranger: await served.t.given.signedInUser(), where: { stream_id: id, room: 'meeting' }, channel: meetingChannelOf(id) };
}

const act = (who: SignedInUser, room: Room, event: string, fields: Record<string, unknown> = {}, idempotencyKey?: string) =>
  who.client.request('POST', '/api/user/lovense-action', {
    body: { event, ...room.where, ...fields }, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {},
  });
const record = (res: { body: Record<string, unknown> }) => res.body.data as Rec;

/** Someone's socket on their own user channel and on the room's channel. */
async function enter(who: SignedInUser, room: Room) {
  const socket = await served.socketOf(who);
  expect(await socket.request({ op: 'subscribe', channel: userChannelOf(who.user.id) })).toMatchObject({ op: 'subscribed' });
  expect(await socket.request({ op: 'subscribe', channel: room.channel })).toMatchObject({ op: 'subscribed' });
  return socket;
}

type Msg = { type: string; text?: string; data?: { event: string; record: Rec }; payload?: Record<string, unknown>; receiver?: number; sender?: number };
const messageOf = (frame: Frame) => frame.message as Msg;
/** The next lovense-access frame for this event. */
const accessFrame = async (socket: WsClient, event: string) =>
  messageOf(await socket.next((f) => f.op === 'message' && messageOf(f).type === 'lovense-access' && messageOf(f).data?.event === event));
const send = (socket: WsClient, room: Room, type: string, fields: Record<string, unknown> = {}) =>
  socket.request({ op: 'send', channel: room.channel, id: frameId(), type, ...fields });
const balanceOf = async (who: SignedInUser) => ((await who.client.get('/api/wallet/balance')).body.balance as { CON: number }).CON;

/** The host's virtual toy switched on (one Lush unless `toys` says otherwise). */
const connectToy = (host: SignedInUser, toys?: Array<{ id: string; name: string }>) =>
  host.client.post('/api/user/lovense-device', { connected: true, ...(toys ? { toys } : {}) });

/** Access requested for the viewer and paid: APPROVED. */
async function approved(room: Room, viewer: SignedInUser, tip = 50) {
  const asked = await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: tip });
  expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  const paid = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: tip }, key());
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  expect(record(paid).access).toBe('APPROVED');
  return paid;
}

describe('toy-device access in a meeting', () => {
  it('runs the whole flow: request with a QR, the offer, the tip through the ledger, control, an extra tip, revoke', async () => {
    const room = await meetingRoom(1);
    const [viewer] = room.viewers as [SignedInUser];
    const hostSocket = await enter(room.host, room);
    const viewerSocket = await enter(viewer, room);

    const device = await connectToy(room.host);
    expect(device.body.data).toMatchObject({ provider: 'simulated', sdk_url: null, connected: true, commands: ['Vibrate'] });
    const hello = messageOf(await hostSocket.message('lovense-app-connection'));
    expect(hello).toMatchObject({ text: MSG.toyVirtualConnected, receiver: room.host.user.id, payload: { status: 'connected' } });

    // The broadcaster asks: a QR for the host's app, PENDING, the offer to the viewer (without the QR).
    const asked = await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 52 });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(record(asked)).toMatchObject({
      access: 'PENDING', broadcaster_state: 'SHOW_TIP_PENDING', viewer_state: 'SHOW_ACCESS_OFFER', tip_amount: 50, tip_currency: 'CON', is_tip_paid: 'N',
      viewer_id: viewer.user.id, broadcaster_id: room.host.user.id, receiver_id: viewer.user.id, sender_id: room.host.user.id, room: 'meeting',
      stream_id: room.where.stream_id, app_connection_status: 'connected', commands: ['Vibrate'], service: 'limelight',
    });
    expect(record(asked).qr_data?.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    const offer = await accessFrame(viewerSocket, 'GET_QR_CODE');
    expect(offer.data!.record).toMatchObject({ access: 'PENDING', viewer_state: 'SHOW_ACCESS_OFFER', qr_data: null });
    expect((await accessFrame(hostSocket, 'GET_QR_CODE')).data!.record.qr_data).not.toBeNull();
    const mine = await act(viewer, room, 'GET_LOVENSE', { viewer_id: viewer.user.id });
    expect(record(mine)).toMatchObject({ access: 'PENDING', qr_data: null });

    // The viewer pays: the tip commits, then access is APPROVED and the broadcaster hears it.
    const before = await balanceOf(viewer);
    const payKey = key();
    const paid = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 50 }, payKey);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(record(paid)).toMatchObject({ access: 'APPROVED', is_tip_paid: 'Y', paid_total: 50, viewer_state: 'SHOW_CONTROLS', broadcaster_state: 'SHOW_LOVENCE_CONNECTED' });
    expect(paid.body.balance).toEqual({ CON: before - 50 });
    const tipped = await accessFrame(hostSocket, 'PAID_TIP_SUCCESS');
    expect(tipped.text).toBe(MSG.toyViewerTipped);
    expect((await accessFrame(viewerSocket, 'PAID_TIP_SUCCESS')).data!.record.viewer_state).toBe('SHOW_CONTROLS');

    // Paying again: the same key answers the record and charges nothing, another key finds nothing to pay.
    const replay = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 50 }, payKey);
    expect(replay.status).toBe(200);
    expect(record(replay).paid_total).toBe(50);
    const again = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 50 }, key());
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(MSG.toyNothingToPay);
    expect(await balanceOf(viewer)).toBe(before - 50);

    // Control: checked, delivered to the broadcaster alone, recorded by the virtual toy.
    expect(await send(viewerSocket, room, 'lovense-command', { command: 'Vibrate', level: 12 })).toMatchObject({ op: 'ack' });
    const command = messageOf(await hostSocket.message('lovense-command'));
    expect(command).toMatchObject({ receiver: room.host.user.id, sender: viewer.user.id, payload: { command: 'Vibrate', level: 12, seq: 1, room: 'meeting', stream_id: room.where.stream_id } });
    expect((await room.host.client.get('/api/user/lovense-device')).body.data).toMatchObject({ levels: { Vibrate: 12 } });
    const tooHigh = await send(viewerSocket, room, 'lovense-command', { command: 'Vibrate', level: 21 });
    expect(tooHigh).toMatchObject({ op: 'error', code: 'validation', message: 'Level must be 0 to 20 for Vibrate.' });
    const notOffered = await send(viewerSocket, room, 'lovense-command', { command: 'Pump', level: 1 });
    expect(notOffered).toMatchObject({ op: 'error', code: 'conflict', message: MSG.toyCommandNotOffered });
    expect(await send(hostSocket, room, 'lovense-command', { command: 'Vibrate', level: 3 })).toMatchObject({ op: 'error', code: 'forbidden', message: MSG.toyViewerOnly });

    // An extra tip request, paid.
    const request = await act(room.host, room, 'PAID_TIP_REQUEST', { viewer_id: viewer.user.id, tip_amount: 30 });
    expect(request.status, JSON.stringify(request.body)).toBe(200);
    expect(request.body.message).toBe(MSG.toyTipRequestSent);
    expect(record(request)).toMatchObject({ access: 'APPROVED', requested_tip: 30, broadcaster_state: 'SHOW_TIP_PENDING', viewer_state: 'SHOW_TIP_REQUEST' });
    expect((await accessFrame(viewerSocket, 'PAID_TIP_REQUEST')).data!.record).toMatchObject({ requested_tip: 30, viewer_state: 'SHOW_TIP_REQUEST' });
    const extra = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 30 }, key());
    expect(record(extra)).toMatchObject({ access: 'APPROVED', requested_tip: 0, paid_total: 80, viewer_state: 'SHOW_CONTROLS', broadcaster_state: 'SHOW_LOVENCE_CONNECTED' });
    expect(extra.body.balance).toEqual({ CON: before - 80 });

    // The broadcaster's list prefers the open record; the broadcaster revokes.
    const list = await act(room.host, room, 'GET_LOVENSE_LIST');
    expect((list.body.data as Rec[]).map((r) => r.access)).toEqual(['APPROVED']);
    const revoked = await act(room.host, room, 'REVOKE_ACCESS', { viewer_id: viewer.user.id });
    expect(revoked.status).toBe(200);
    expect(revoked.body.message).toBe(MSG.toyAccessRevoked);
    expect(record(revoked)).toMatchObject({ access: 'REVOKE', broadcaster_state: 'NONE', viewer_state: 'NONE' });
    const told = await accessFrame(viewerSocket, 'REVOKE_ACCESS');
    expect(told.text).toBe(MSG.toyAccessRevokedByBroadcaster);
    expect(await send(viewerSocket, room, 'lovense-command', { command: 'Vibrate', level: 1 })).toMatchObject({ op: 'error', code: 'conflict', message: 'This cannot be done while device access is REVOKE.' });
    const twice = await act(room.host, room, 'REVOKE_ACCESS', { viewer_id: viewer.user.id });
    expect(twice.status).toBe(409);

    // A new request after a revoke starts again.
    expect(record(await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 10 }))).toMatchObject({ access: 'PENDING', is_tip_paid: 'N', paid_total: 0 });
  });

  it('lets the viewer decline, tells the broadcaster, and refuses what DECLINE does not allow', async () => {
    const room = await meetingRoom(1);
    const [viewer] = room.viewers as [SignedInUser];
    const hostSocket = await enter(room.host, room);
    await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 100 });
    const declined = await act(viewer, room, 'DECLINE_REQUEST', { viewer_id: viewer.user.id });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    expect(record(declined)).toMatchObject({ access: 'DECLINE', viewer_state: 'NONE', broadcaster_state: 'NONE' });
    expect((await accessFrame(hostSocket, 'DECLINE_REQUEST')).text).toBe(MSG.toyViewerDeclined);

    const pay = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 100 }, key());
    expect(pay.status).toBe(409);
    expect(pay.body.message).toBe('This cannot be done while device access is DECLINE.');
    expect((await act(viewer, room, 'DECLINE_REQUEST')).status).toBe(409);
    expect((await act(room.host, room, 'PAID_TIP_REQUEST', { viewer_id: viewer.user.id, tip_amount: 10 })).status).toBe(409);
    expect((await act(room.host, room, 'REGENERATE_QR_CODE', { viewer_id: viewer.user.id })).status).toBe(409);
  });

  it('regenerates the QR of open access', async () => {
    const room = await meetingRoom(1);
    const [viewer] = room.viewers as [SignedInUser];
    const first = record(await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 10 }));
    const second = await act(room.host, room, 'REGENERATE_QR_CODE', { viewer_id: viewer.user.id });
    expect(second.status).toBe(200);
    expect(record(second).access).toBe('PENDING');
    expect(record(second).qr_data!.code).not.toBe(first.qr_data!.code);
  });

  it('refuses host-only events to viewers, viewer events to the host and to other viewers, and everything to outsiders', async () => {
    const room = await meetingRoom(2);
    const [viewer, other] = room.viewers as [SignedInUser, SignedInUser];
    await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 10 });

    for (const [event, fields] of [
      ['GET_QR_CODE', { viewer_id: other.user.id, tip_amount: 10 }], ['REGENERATE_QR_CODE', { viewer_id: viewer.user.id }], ['REVOKE_ACCESS', { viewer_id: viewer.user.id }],
      ['PAID_TIP_REQUEST', { viewer_id: viewer.user.id, tip_amount: 10 }], ['GET_LOVENSE_LIST', {}],
    ] as const) {
      const res = await act(viewer, room, event, fields);
      expect(res.status, event).toBe(403);
      expect(res.body.message, event).toBe(MSG.toyBroadcasterOnly);
    }
    for (const event of ['PAID_TIP_SUCCESS', 'DECLINE_REQUEST']) {
      const res = await act(room.host, room, event, { ...(event === 'DECLINE_REQUEST' ? { viewer_id: viewer.user.id } : { tip_amount: 10 }) }, key());
      expect(res.status, event).toBe(403);
      expect(res.body.message, event).toBe(MSG.toyViewerOnly);
    }
    // Another viewer: not theirs to read, decline or pay.
    expect((await act(other, room, 'GET_LOVENSE', { viewer_id: viewer.user.id })).status).toBe(403);
    expect((await act(other, room, 'DECLINE_REQUEST', { viewer_id: viewer.user.id })).status).toBe(403);
    const notOffered = await act(other, room, 'PAID_TIP_SUCCESS', { tip_amount: 10 }, key());
    expect(notOffered.status).toBe(404);
    expect(notOffered.body.message).toBe(MSG.toyNoAccess);
    expect(record(await act(other, room, 'GET_LOVENSE', { viewer_id: other.user.id }))).toBeNull();

    // Outsiders do not see the room; the broadcaster cannot pick them, nor themselves, nor a second viewer.
    const outside = await act(room.stranger, room, 'GET_LOVENSE', { viewer_id: room.stranger.user.id });
    expect(outside.status).toBe(404);
    expect(outside.body.message).toBe(MSG.meetingUnavailable);
    const pickStranger = await act(room.host, room, 'GET_QR_CODE', { viewer_id: room.stranger.user.id, tip_amount: 10 });
    expect([pickStranger.status, pickStranger.body.message]).toEqual([404, MSG.toyNotInRoom]);
    const pickSelf = await act(room.host, room, 'GET_QR_CODE', { viewer_id: room.host.user.id, tip_amount: 10 });
    expect([pickSelf.status, pickSelf.body.message]).toEqual([409, MSG.toyNotForYourself]);
    const second = await act(room.host, room, 'GET_QR_CODE', { viewer_id: other.user.id, tip_amount: 10 });
    expect([second.status, second.body.message]).toEqual([409, MSG.toyOtherViewer]);
    const repeat = await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 10 });
    expect([repeat.status, repeat.body.message]).toEqual([409, 'This cannot be done while device access is PENDING.']);
    expect((await room.stranger.client.request('POST', '/api/user/lovense-action', { body: { event: 'GET_LOVENSE_LIST', stream_id: 999_999_999, room: 'meeting' } })).status).toBe(404);
    expect((await served.t.client().post('/api/user/lovense-action', { event: 'GET_LOVENSE_LIST', ...room.where })).status).toBe(401);

    // Realtime: an outsider, another viewer and the host may not control.
    const strangerSocket = await served.socketOf(room.stranger);
    expect(await send(strangerSocket, room, 'lovense-command', { command: 'Vibrate', level: 1 })).toMatchObject({ op: 'error', code: 'forbidden' });
    expect(await send(strangerSocket, room, 'lovense-host-end-call')).toMatchObject({ op: 'error', code: 'forbidden' });
    const otherSocket = await enter(other, room);
    expect(await send(otherSocket, room, 'lovense-command', { command: 'Vibrate', level: 1 })).toMatchObject({ op: 'error', code: 'forbidden', message: MSG.toyNoAccess });
    expect(await send(otherSocket, room, 'lovense-host-end-call')).toMatchObject({ op: 'error', code: 'forbidden', message: MSG.toyBroadcasterOnly });
    const anonymous = await served.socketOf();
    expect(await send(anonymous, room, 'lovense-command', { command: 'Vibrate', level: 1 })).toMatchObject({ op: 'error', code: 'unauthorized' });
    // The viewer's own command before paying: the access is not APPROVED.
    const viewerSocket = await enter(viewer, room);
    expect(await send(viewerSocket, room, 'lovense-command', { command: 'Vibrate', level: 1 })).toMatchObject({ op: 'error', code: 'conflict', message: 'This cannot be done while device access is PENDING.' });
  });

  it('charges the tip the viewer saw: a request changed since is refused (409) with the new amount, and nothing moves', async () => {
    const room = await meetingRoom(1);
    const [viewer] = room.viewers as [SignedInUser];
    await connectToy(room.host);
    const viewerSocket = await enter(viewer, room);
    await approved(room, viewer, 50);
    const db = served.t.resources.database.db;

    // The host asks 10, the viewer's page shows 10; the host asks 900 before the viewer pays.
    await act(room.host, room, 'PAID_TIP_REQUEST', { viewer_id: viewer.user.id, tip_amount: 10 });
    expect((await accessFrame(viewerSocket, 'PAID_TIP_REQUEST')).data!.record.requested_tip).toBe(10);
    await act(room.host, room, 'PAID_TIP_REQUEST', { viewer_id: viewer.user.id, tip_amount: 900 });
    const before = await coinHoldings(db);
    const stale = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 10 }, key());
    expect(stale.status, JSON.stringify(stale.body)).toBe(409);
    expect(stale.body).toMatchObject({ response: 'conflict', message: fill(MSG.toyTipChanged, { amount: 900 }), field: 'tip_amount', tip_amount: 900 });
    expect(coinChanges(before, await coinHoldings(db))).toEqual({});
    expect(record(await act(viewer, room, 'GET_LOVENSE', { viewer_id: viewer.user.id }))).toMatchObject({ requested_tip: 900, paid_total: 50, viewer_state: 'SHOW_TIP_REQUEST' });
    // A payment that names no amount is not taken at all.
    expect((await act(viewer, room, 'PAID_TIP_SUCCESS', {}, key())).status).toBe(400);

    // The viewer accepts the new amount: 900 leaves the viewer, the host gets it less the 20 % fee.
    const paid = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 900 }, key());
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(record(paid)).toMatchObject({ requested_tip: 0, paid_total: 950 });
    expect(coinChanges(before, await coinHoldings(db))).toEqual({ [String(viewer.user.id)]: -900, [String(room.host.user.id)]: 720, fees: 180 });
  });

  it('takes no payment while the host has no device connected (409, nothing moves), and takes it once one is', async () => {
    const room = await meetingRoom(1);
    const [viewer] = room.viewers as [SignedInUser];
    const db = served.t.resources.database.db;
    await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 40 });
    const before = await coinHoldings(db);
    const refused = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 40 }, key());
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body).toMatchObject({ response: 'conflict', message: MSG.toyNoDeviceToPay });
    expect(coinChanges(before, await coinHoldings(db))).toEqual({});
    expect(record(await act(viewer, room, 'GET_LOVENSE', { viewer_id: viewer.user.id }))).toMatchObject({ access: 'PENDING', is_tip_paid: 'N' });
    await connectToy(room.host);
    const paid = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 40 }, key());
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(coinChanges(before, await coinHoldings(db))).toEqual({ [String(viewer.user.id)]: -40, [String(room.host.user.id)]: 32, fees: 8 });
    expect(conservationViolations(await checkConservation(db))).toEqual([]);
  });

  it('needs an Idempotency-Key to pay, refuses a viewer without coins (402) and keeps the offer open', async () => {
    const room = await meetingRoom(1, 0);
    const [viewer] = room.viewers as [SignedInUser];
    await connectToy(room.host);
    await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 40 });
    const keyless = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 40 });
    expect(keyless.status).toBe(400);
    const broke = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 40 }, key());
    expect(broke.status, JSON.stringify(broke.body)).toBe(402);
    expect(broke.body.response).toBe('insufficient_funds');
    expect(record(await act(viewer, room, 'GET_LOVENSE', { viewer_id: viewer.user.id }))).toMatchObject({ access: 'PENDING', is_tip_paid: 'N' });
    await served.t.given.coins(viewer.user, 40);
    const paid = await act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 40 }, key());
    expect(paid.status).toBe(200);
    expect(paid.body.balance).toEqual({ CON: 0 });
  });

  it('charges once when the same payment is sent twice at the same time', async () => {
    const room = await meetingRoom(1);
    const [viewer] = room.viewers as [SignedInUser];
    await connectToy(room.host);
    await act(room.host, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 100 });
    const same = key();
    const answers = await Promise.all([act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 100 }, same), act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 100 }, same), act(viewer, room, 'PAID_TIP_SUCCESS', { tip_amount: 100 }, key())]);
    // Whichever key wins pays; the same key's twin answers as it did, the other key finds nothing to pay.
    const [a, b, c] = answers.map((x) => x.status);
    expect(a).toBe(b);
    expect([[a, c], [c, a]].map(String)).toContain('200,409');
    expect(await balanceOf(viewer)).toBe(900);
  });

  it("revokes on the broadcaster's hang-up and declines on the viewer's, with the spec's messages", async () => {
    const room = await meetingRoom(2);
    const [viewer, other] = room.viewers as [SignedInUser, SignedInUser];
    await connectToy(room.host);
    const hostSocket = await enter(room.host, room);
    const viewerSocket = await enter(viewer, room);
    await approved(room, viewer);

    expect(await send(viewerSocket, room, 'lovense-viewer-end-call')).toMatchObject({ op: 'ack' });
    const left = messageOf(await hostSocket.message('lovense-viewer-end-call'));
    expect(left).toMatchObject({ text: MSG.toyViewerLeftCall, receiver: room.host.user.id, sender: viewer.user.id, payload: { room: 'meeting', stream_id: room.where.stream_id } });
    expect((await accessFrame(hostSocket, 'VIEWER_END_CALL')).data!.record.access).toBe('DECLINE');
    // Hanging up with nothing open does nothing.
    expect(await send(viewerSocket, room, 'lovense-viewer-end-call')).toMatchObject({ op: 'ack' });

    const otherSocket = await enter(other, room);
    await act(room.host, room, 'GET_QR_CODE', { viewer_id: other.user.id, tip_amount: 10 });
    expect(await send(hostSocket, room, 'lovense-viewer-end-call')).toMatchObject({ op: 'error', code: 'forbidden' });
    expect(await send(hostSocket, room, 'lovense-host-end-call')).toMatchObject({ op: 'ack' });
    const revoked = await accessFrame(otherSocket, 'HOST_END_CALL');
    expect(revoked).toMatchObject({ text: MSG.toyAccessRevokedByBroadcaster });
    expect(revoked.data!.record.access).toBe('REVOKE');
  });

  it('revokes the open access of a call the host ends, and of one they delete', async () => {
    const ended = await meetingRoom(1);
    const [viewer] = ended.viewers as [SignedInUser];
    await connectToy(ended.host);
    const viewerSocket = await enter(viewer, ended);
    await approved(ended, viewer);
    expect((await ended.host.client.post('/api/user/end-meeting', { id: ended.where.stream_id })).status).toBe(200);
    const revoked = await accessFrame(viewerSocket, 'ROOM_CLOSED');
    expect(revoked).toMatchObject({ text: MSG.toyAccessRevokedByBroadcaster });
    expect(revoked.data!.record.access).toBe('REVOKE');
    expect(await send(viewerSocket, ended, 'lovense-command', { command: 'Vibrate', level: 1 })).toMatchObject({ op: 'error' });

    const deleted = await meetingRoom(1);
    const [invited] = deleted.viewers as [SignedInUser];
    await connectToy(deleted.host);
    expect((await act(deleted.host, deleted, 'GET_QR_CODE', { viewer_id: invited.user.id, tip_amount: 10 })).status).toBe(200);
    expect((await deleted.host.client.post('/api/user/delete-schedule-meeting', { id: deleted.where.stream_id })).status).toBe(200);
    const { rows } = await served.t.resources.database.db.execute<{ access: string }>(
      sql`select access from toy_access where stream_id = ${deleted.where.stream_id} and room = 'meeting'`,
    );
    expect(rows).toEqual([{ access: 'REVOKE' }]);
  });

  it('shows Device not found without toys, passes the add-device request on, and gives the controls once toys connect', async () => {
    const room = await meetingRoom(1);
    const [viewer] = room.viewers as [SignedInUser];
    await connectToy(room.host, []);
    const hostSocket = await enter(room.host, room);
    const viewerSocket = await enter(viewer, room);
    const paid = await approved(room, viewer);
    expect(record(paid)).toMatchObject({ viewer_state: 'SHOW_DEVICE_NOT_FOUND', broadcaster_state: 'NONE', data: [], commands: [] });
    expect(await send(viewerSocket, room, 'lovense-command', { command: 'Vibrate', level: 1 })).toMatchObject({ op: 'error', code: 'conflict', message: MSG.toyDeviceNotFound });

    expect(await send(viewerSocket, room, 'lovense-add-device-request')).toMatchObject({ op: 'ack' });
    expect(messageOf(await hostSocket.message('lovense-add-device-request'))).toMatchObject({ text: MSG.toyAddDevices, sender: viewer.user.id, receiver: room.host.user.id });
    expect((await accessFrame(hostSocket, 'ADD_DEVICE_REQUEST')).data!.record.broadcaster_state).toBe('SHOW_TOY_ADD_PENDING');

    await connectToy(room.host, [{ id: 'm1', name: 'max' }]);
    const ready = await accessFrame(viewerSocket, 'DEVICE_CHANGED');
    expect(ready.data!.record).toMatchObject({ viewer_state: 'SHOW_CONTROLS', broadcaster_state: 'SHOW_LOVENCE_CONNECTED', commands: ['Vibrate', 'Pump'] });
    expect(await send(viewerSocket, room, 'lovense-command', { command: 'Pump', level: 3 })).toMatchObject({ op: 'ack' });

    // The app disconnects: both sides are told, and again a little later.
    await room.host.client.post('/api/user/lovense-device', { connected: false });
    const disconnected = (f: Frame) => f.op === 'message' && messageOf(f).type === 'lovense-app-connection' && messageOf(f).text === MSG.toyVirtualDisconnected;
    const gone = messageOf(await viewerSocket.next(disconnected));
    expect(gone).toMatchObject({ receiver: viewer.user.id, sender: room.host.user.id, payload: { status: 'disconnected', room: 'meeting', stream_id: room.where.stream_id } });
    expect(messageOf(await viewerSocket.next(disconnected, 8000)).payload).toMatchObject({ status: 'disconnected' });
  });

  it('limits a viewer to TOY.commandsPerSecond commands', async () => {
    const room = await meetingRoom(1);
    const [viewer] = room.viewers as [SignedInUser];
    await connectToy(room.host);
    await approved(room, viewer);
    const viewerSocket = await enter(viewer, room);
    // The clock held still: exactly a burst of TOY.commandsPerSecond passes, whatever the machine's speed.
    const at = Date.now();
    served.t.app.services.toys.control.useClock(() => at);
    const answers: Frame[] = [];
    try {
      for (let i = 0; i < TOY.commandsPerSecond + 5; i += 1) answers.push(await send(viewerSocket, room, 'lovense-command', { command: 'Vibrate', level: i % 20 }));
    } finally {
      served.t.app.services.toys.control.useClock(null);
    }
    expect(answers.filter((a) => a.op === 'ack')).toHaveLength(TOY.commandsPerSecond);
    const limited = answers.filter((a) => a.op === 'error');
    expect(limited).toHaveLength(5);
    expect(limited[0]).toMatchObject({ code: 'rate_limited', message: MSG.toyCommandsTooFast });
    // A second later the bucket is full again.
    served.t.app.services.toys.control.useClock(() => at + 1_000);
    try {
      expect(await send(viewerSocket, room, 'lovense-command', { command: 'Vibrate', level: 1 })).toMatchObject({ op: 'ack' });
    } finally {
      served.t.app.services.toys.control.useClock(null);
    }
  });

  it("gives the broadcaster alone a token for their own device (simulated: it opens nothing)", async () => {
    const room = await meetingRoom(1);
    const [viewer] = room.viewers as [SignedInUser];
    const token = await room.host.client.get('/api/user/lovense-token', { user_id: room.host.user.id, ...room.where });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.data).toMatchObject({ platform: 'simulated', uid: String(room.host.user.id), authToken: expect.any(String) });
    expect((await viewer.client.get('/api/user/lovense-token', { user_id: viewer.user.id, ...room.where })).status).toBe(403);
    expect((await room.host.client.get('/api/user/lovense-token', { user_id: viewer.user.id, ...room.where })).status).toBe(403);
    expect((await room.stranger.client.get('/api/user/lovense-token', { user_id: room.stranger.user.id, ...room.where })).status).toBe(404);
  });

  it('refuses an unverified Lovense callback', async () => {
    const res = await served.t.client().request('POST', '/api/lovense/callback', { body: { uid: '1000001', utoken: 'x', toys: {} } });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ response: 'forbidden', message: MSG.toyCallbackUnverified });
  });
});

describe('toy-device access on a live stream', () => {
  it("works for the stream's viewers, pays with the stream named in the ledger, and ends with the broadcast", async () => {
    const live = await served.t.given.liveStream();
    const owner: SignedInUser = { user: live.user, client: live.client } as SignedInUser;
    const viewer = await served.t.given.signedInUser();
    await served.t.given.coins(viewer.user, 100);
    const room: Room = { host: owner, viewers: [viewer], stranger: viewer, where: { stream_id: live.streamId, room: 'stream' }, channel: streamChannelOf(live.streamId) };
    await connectToy(owner);
    const hostSocket = await enter(owner, room);
    const viewerSocket = await enter(viewer, room);
    // The broadcaster picks among the signed-in people watching now (on every instance, as presence is written).
    const watchers = await eventually(() => owner.client.get(`/api/user/lovense-stream-viewers?stream_id=${live.streamId}`), (res) => (res.body.viewers as unknown[] | undefined)?.length === 1);
    expect(watchers.body.viewers).toEqual([{ user_id: viewer.user.id, name: expect.any(String), avatar: null }]);
    expect((await viewer.client.get(`/api/user/lovense-stream-viewers?stream_id=${live.streamId}`)).status).toBe(403);
    const stranger = await served.t.given.signedInUser();
    expect((await stranger.client.get(`/api/user/lovense-stream-viewers?stream_id=${live.streamId}`)).status).toBe(403);
    await approved(room, viewer, 20);
    const { rows } = await served.t.resources.database.db.execute<{ kind: string; stream_id: string; amount: number }>(
      sql`select kind, stream_id, amount from ledger_transfers where from_user_id = ${viewer.user.id} and kind = 'toy_tip'`,
    );
    expect(rows.map((r) => ({ kind: r.kind, stream_id: Number(r.stream_id), amount: Number(r.amount) }))).toEqual([{ kind: 'toy_tip', stream_id: live.streamId, amount: 20 }]);
    expect(await send(viewerSocket, room, 'lovense-command', { command: 'Vibrate', level: 5 })).toMatchObject({ op: 'ack' });
    expect(messageOf(await hostSocket.message('lovense-command')).payload).toMatchObject({ room: 'stream', stream_id: live.streamId, level: 5 });
    // Comments and likes on the stream's channel still go to the chat.
    expect(await send(viewerSocket, room, 'COMMENT', { text: 'nice' })).toMatchObject({ op: 'ack' });

    await served.t.app.services.broadcastCallbacks.onEnded({ streamId: live.streamId, broadcastId: 'b1', playlistKey: `media/${live.streamId}/b1/index.m3u8`, lengthSeconds: 30 });
    const closed = await accessFrame(viewerSocket, 'ROOM_CLOSED');
    expect(closed).toMatchObject({ text: MSG.toyAccessRevokedByBroadcaster });
    const again = await act(owner, room, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 10 });
    expect([again.status, again.body.message]).toEqual([409, MSG.toyRoomClosed]);
  });
});

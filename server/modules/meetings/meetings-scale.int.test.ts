/** Two instances on one PostgreSQL database and one Redis: runs when TEST_DATABASE_URL and TEST_REDIS_URL are set. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { suiteNeeding } from '../../testing/suite-needing';
import { meetingChannelOf, userChannelOf } from '../../../common/realtime';
import { startListeningSharedApps, type TestApp } from '../../testing/harness';
import { WsClient } from '../../testing/ws-client';

const redisUrl = process.env.TEST_REDIS_URL;

suiteNeeding('postgres', 'redis')('a meeting room across instances', () => {
  let instances: Array<{ t: TestApp; baseUrl: string }> = [];
  const sockets: WsClient[] = [];
  beforeAll(async () => {
    instances = await startListeningSharedApps(2, { REDIS_URL: redisUrl! });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const { t } of instances) await t.close();
  });

  it('lists the host on A and the invitee on B in PARTICIPANTS, and carries their signals between the instances', async () => {
    const [{ t: a, baseUrl: baseA }, { t: b, baseUrl: baseB }] = instances as [{ t: TestApp; baseUrl: string }, { t: TestApp; baseUrl: string }];
    const host = await a.given.signedInUser();
    const fan = await a.given.follower(host.user);
    const created = await host.client.post('/api/user/create-meeting', {
      audience_ids: String(fan.user.id), title: 'Scaled call', start_time: new Date(Date.now() + 600_000).toISOString(),
    });
    const id = (created.body.data as { meeting_id: number }).meeting_id;
    await a.given.coins(fan.user, 250);
    expect((await fan.client.request('POST', '/api/user/pay-meeting', { body: { id, amount: 250 }, headers: { 'idempotency-key': 'scaled-1' } })).status).toBe(200);

    const onA = await WsClient.connect(baseA, host.client.cookie('ll_session'));
    const onB = await WsClient.connect(baseB, (await b.given.signedIn(fan.user)).cookie('ll_session'));
    sockets.push(onA, onB);
    const channel = meetingChannelOf(id);
    for (const [socket, userId] of [[onA, host.user.id], [onB, fan.user.id]] as const) {
      expect(await socket.request({ op: 'subscribe', channel: userChannelOf(userId) })).toMatchObject({ op: 'subscribed' });
      expect(await socket.request({ op: 'subscribe', channel })).toMatchObject({ op: 'subscribed' });
    }
    const both = [host.user.id, fan.user.id].sort((x, y) => x - y).join(',');
    const listing = await onA.next((f) => {
      const message = f.message as { type?: string; data?: { participants: Array<{ user_id: number }> } } | undefined;
      return message?.type === 'PARTICIPANTS' && message.data!.participants.map((p) => p.user_id).sort((x, y) => x - y).join(',') === both;
    }, 10_000);
    expect(listing.message).toMatchObject({ data: { host_present: true } });

    const signal = { candidate: { candidate: 'candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host', sdpMid: '0', sdpMLineIndex: 0 } };
    expect(await onA.request({ op: 'send', channel, id: 's1', type: 'SIGNAL', to: fan.user.id, signal })).toMatchObject({ op: 'ack' });
    expect((await onB.message('SIGNAL')).message).toEqual({ type: 'SIGNAL', data: { meeting_id: id, from: host.user.id, signal } });
    expect(await onB.request({ op: 'send', channel, id: 's2', type: 'SIGNAL', to: host.user.id, signal })).toMatchObject({ op: 'ack' });
    expect((await onA.message('SIGNAL')).message).toMatchObject({ data: { from: fan.user.id } });
  });
});

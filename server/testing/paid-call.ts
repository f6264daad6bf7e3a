/** A video call's fee paid through the real calls: the host schedules a private call for the guest, opens it, and the guest pays. */
import { expect } from 'vitest';
import type { SignedInUser } from './given';

export async function paidCallFee(host: SignedInUser, guest: SignedInUser, coins: number, idempotencyKey: string): Promise<number> {
  const meeting = await host.client.post('/api/user/create-meeting', {
    audience: 'PRIVATE', audience_ids: String(guest.user.id), title: 'Evening call', start_time: new Date(Date.now() + 3_600_000).toISOString(), tip_rules: { currency: 'CON', viewer_min_amount: coins },
  });
  expect(meeting.status, JSON.stringify(meeting.body)).toBe(200);
  const meetingId = (meeting.body.data as { meeting_id: number }).meeting_id;
  expect((await host.client.post('/api/user/join-meeting', { id: meetingId })).status).toBe(200);
  const paid = await guest.client.request('POST', '/api/user/pay-meeting', { body: { id: meetingId, amount: coins }, headers: { 'idempotency-key': idempotencyKey } });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  return meetingId;
}

/**
 * Refunds of a meeting's guests: a call that never went live gave its paying guests nothing, so removing
 * them, or deleting the call, pays back everything they paid (the host's wallet and the platform's fee).
 */
import { and, eq } from 'drizzle-orm';
import { MSG } from '../../../common/messages';
import type { Tx } from '../../platform/db/client';
import { conflict } from '../../platform/http/errors';
import { InsufficientFunds, receivingShard, type Ledger } from '../ledger';
import type { InviteeRow, MeetingRow } from './standing';
import { meetingInvitees } from './tables';

/** A refund of everything a guest paid: the host's wallet and the platform's fee account pay it back. */
function refundLegs(payerId: number, hostId: number, paid: number, fees: number) {
  return [
    { account: { userId: payerId, currency: 'CON' as const }, amount: paid },
    { account: { userId: hostId, currency: 'CON' as const }, amount: -(paid - fees) },
    ...(fees > 0 ? [{ account: { system: 'fees' as const, currency: 'CON' as const, shard: receivingShard(payerId) }, amount: -fees }] : []),
  ];
}

export function createRefunds(deps: { ledger: Ledger }) {
  const { ledger } = deps;

  /**
   * A call that never went live gave its paying guests nothing: removing them, or deleting the call,
   * pays back everything they paid, in the caller's transaction. Once live, payments stay (the call happened).
   */
  async function refundBeforeStart(tx: Tx, row: MeetingRow, invitees: InviteeRow[]) {
    if (row.state !== 'scheduled') return;
    for (const invitee of invitees) {
      if (invitee.paid <= 0) continue;
      await ledger.transfer({
        kind: 'refund',
        idempotencyKey: `meeting:${row.id}:refund:${invitee.userId}:${invitee.invitedAt.getTime()}`,
        fromUserId: row.hostId,
        toUserId: invitee.userId,
        amount: invitee.paid,
        currency: 'CON',
        details: { meeting_id: row.id, fee: invitee.feesPaid },
        legs: refundLegs(invitee.userId, row.hostId, invitee.paid, invitee.feesPaid),
      }, tx);
      await tx.update(meetingInvitees).set({ paid: 0, feesPaid: 0 }).where(and(eq(meetingInvitees.meetingId, row.id), eq(meetingInvitees.userId, invitee.userId)));
    }
  }

  /** A host whose wallet cannot cover the refunds keeps the call as it was. */
  async function refusingShortRefunds<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof InsufficientFunds) throw conflict(MSG.meetingRefundShort);
      throw error;
    }
  }

  return { refundBeforeStart, refusingShortRefunds };
}

export type Refunds = ReturnType<typeof createRefunds>;

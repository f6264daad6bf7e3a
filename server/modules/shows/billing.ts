/**
 * A show's minutes through the ledger (decision 0085): each minute is one `show_minute` transfer keyed by
 * the show, the viewer and the minute's number, made at the minute's start by one statement that also
 * moves the seat's paid time. Whoever runs it (the request that starts a seat, any instance's billing
 * job, a run again after kill -9), a minute is paid once, and the seat's count moves only with its coins.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { SHOW } from '../../../common/rules/shows';
import type { Db, Executor } from '../../platform/db/client';
import { paymentLegs, walletBalanceSql, type Ledger } from '../ledger';
import { streamLiveSql } from '../streams';
import { showSeats, shows } from './tables';

export type ShowRow = typeof shows.$inferSelect;
export type SeatRow = typeof showSeats.$inferSelect;

/** The ledger key of a seat's minute `minute` (0: the first). */
export const minuteKey = (showId: number, userId: number, minute: number) => `show:${showId}:${userId}:${minute}`;

/** What charging a minute found. */
export type MinuteOutcome =
  | { paid: true; seat: SeatRow }
  /** The key had paid this minute before, or the seat moved on meanwhile: nothing to do. */
  | { paid: false; why: 'done' }
  /** The viewer's page has not been heard from: they left. */
  | { paid: false; why: 'gone' }
  /** The wallet cannot pay the minute (`elsewhere`: coins in receiving shards would). */
  | { paid: false; why: 'short'; elsewhere: boolean }
  /** The show or the broadcast is no longer on. */
  | { paid: false; why: 'off' };

export function createShowBilling(deps: { db: Db; ledger: Ledger; feePercent: number; minuteMs: number; graceMs: number }) {
  const { db, ledger, feePercent, minuteMs, graceMs } = deps;
  const goneBefore = sql`now() - make_interval(secs => ${SHOW.goneAfterMs / 1000})`;

  /**
   * Charges the seat's next minute if, as the statement sees it, the seat is still at that minute, its
   * viewer is there, the show and broadcast are on (`due`: and the paid time is over), and the wallet
   * holds the price. The seat becomes active and paid a minute further; a seat paid up to a while ago
   * (the billing stopped longer than the grace) starts its minute now, so no unshown time is paid.
   */
  async function chargeMinute(seat: SeatRow, show: ShowRow, options: { due: boolean }, exec: Executor = db): Promise<MinuteOutcome> {
    const price = seat.pricePerMinute;
    const { fee, legs } = paymentLegs(seat.userId, show.broadcasterId, price, feePercent);
    const atMinute = sql`exists (select 1 from ${showSeats} s where s.id = ${seat.id} and s.state <> 'ended' and s.minutes_billed = ${seat.minutesBilled}
      ${options.due ? sql`and s.paid_until <= now()` : sql``})`;
    const present = sql`exists (select 1 from ${showSeats} s where s.id = ${seat.id} and s.seen_at > ${goneBefore})`;
    const on = sql`${streamLiveSql(show.streamId)} and exists (select 1 from ${shows} sh where sh.id = ${show.id} and sh.state in ('requested', 'gathering', 'live'))`;
    const covered = sql`coalesce((${walletBalanceSql(seat.userId, 'CON')}), 0) >= ${price}`;
    const outcome = await ledger.guardedTransfer({
      kind: 'show_minute',
      idempotencyKey: minuteKey(show.id, seat.userId, seat.minutesBilled),
      fromUserId: seat.userId,
      toUserId: show.broadcasterId,
      streamId: show.streamId,
      amount: price,
      currency: 'CON',
      details: { show_id: show.id, show_kind: show.kind, role: seat.role, minute: seat.minutesBilled + 1, fee, fee_percent: feePercent },
      legs,
    }, {
      guard: sql`${atMinute} and ${present} and ${on} and ${covered}`,
      select: {
        at_minute: atMinute,
        present,
        on,
        total: sql`(select coalesce(sum(balance), 0) from ledger_accounts where user_id = ${seat.userId} and currency = 'CON')`,
      },
      after: {
        seat_paid: sql`update ${showSeats} set state = 'active', minutes_billed = minutes_billed + 1, coins_paid = coins_paid + ${price}, claimed_until = null,
            paid_until = (case when paid_until is not null and paid_until >= now() - make_interval(secs => ${graceMs / 1000}) then paid_until else now() end)
              + make_interval(secs => ${minuteMs / 1000})
          where id = ${seat.id} and exists (select 1 from t)`,
      },
    }, exec);
    if (outcome.created) {
      const [paid] = await exec.select().from(showSeats).where(eq(showSeats.id, seat.id));
      return { paid: true, seat: paid! };
    }
    if (outcome.allowed) return { paid: false, why: 'done' };
    const s = outcome.selected;
    if (!s.at_minute) return { paid: false, why: 'done' };
    if (!s.on) return { paid: false, why: 'off' };
    if (!s.present) return { paid: false, why: 'gone' };
    return { paid: false, why: 'short', elsewhere: Number(s.total) >= price };
  }

  /**
   * Claims up to `limit` active seats whose paid time is over, oldest first, for `leaseMs`: each instance's
   * run bills its own (FOR UPDATE SKIP LOCKED, then the claim), so two instances share the seats rather
   * than both charging each. A charge clears its seat's claim; a killed run's claim lapses.
   */
  async function claimDue(limit: number, leaseMs: number): Promise<Array<{ seat: SeatRow; show: ShowRow }>> {
    const claimable = db.select({ id: showSeats.id }).from(showSeats)
      .where(and(sql`${showSeats.state} = 'active'`, sql`${showSeats.paidUntil} <= now()`,
        sql`(${showSeats.claimedUntil} is null or ${showSeats.claimedUntil} < now())`))
      .orderBy(asc(showSeats.paidUntil)).limit(limit).for('update', { skipLocked: true });
    const claimed = await db.update(showSeats).set({ claimedUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
      .where(inArray(showSeats.id, claimable)).returning();
    if (claimed.length === 0) return [];
    const showRows = await db.select().from(shows).where(inArray(shows.id, [...new Set(claimed.map((seat) => seat.showId))]));
    const byId = new Map(showRows.map((show) => [show.id, show]));
    return claimed.map((seat) => ({ seat, show: byId.get(seat.showId)! }));
  }

  return { chargeMinute, claimDue };
}

export type ShowBilling = ReturnType<typeof createShowBilling>;

/** Runs `work` over `items`, at most `width` at a time. */
export async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
}


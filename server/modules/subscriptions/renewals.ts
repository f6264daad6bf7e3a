/**
 * Renewals: at the end of each paid period an auto-renewing subscription is charged for the next one.
 * Safe with several instances and after kill -9:
 * - a run claims a batch of due subscriptions with FOR UPDATE SKIP LOCKED in one transaction, so two
 *   runs never hold the same subscription; a renewal is its guarded charge and one statement moving its period;
 * - a period's charge is keyed by the subscription and the period number, and the period number moves
 *   in the same transaction as the charge: a renewal commits whole or not at all, and a period can
 *   never be charged twice whoever runs it, before or after a crash.
 * A subscriber whose wallet cannot pay has the subscription cancelled (the benefits end with the paid
 * period) and is told by e-mail after the commit.
 */
import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { coins } from '../../../common/rules/format';
import { periodEnd, periodLabel } from '../../../common/rules/plans';
import { sqlState, type Db } from '../../platform/db/client';
import type { EventOutbox } from '../../platform/event-outbox';
import { AccountOnHold, InsufficientFunds, receivingShard, walletBalanceSql, type Ledger } from '../ledger';
import { historyRow, paymentLegs, renewalKey } from './payments';
import { subscriptionHistory, subscriptions } from './tables';
import './events';

/** Deadlock, serialization failure (a wallet's failed CHECK arrives as InsufficientFunds). */
const RETRIED_STATES = new Set(['40P01', '40001']);

/** Subscriptions claimed per transaction. */
export const RENEWAL_BATCH = 100;
/** A period that ended longer ago than this (the job was not running) restarts at the renewal, not at its old end: nobody pays for time without access. */
const LATE_RENEWAL_MS = 24 * 60 * 60 * 1000;

type SubscriptionRow = typeof subscriptions.$inferSelect;

/**
 * Due for renewal at `now`. The state and auto-renew are written into the text, not sent as values:
 * the pool plans statements generically, and only a literal predicate lets PostgreSQL use the partial
 * index `subscriptions_due_idx` (with values it scans and sorts every enabled subscription per batch).
 */
const dueAt = (now: Date) => and(sql`${subscriptions.state} = 'enabled' and ${subscriptions.autoRenew}`, lte(subscriptions.endDate, now));

export interface RenewalOutcome {
  renewed: number;
  failed: number;
}

export interface RenewalDeps {
  db: Db;
  ledger: Ledger;
  /** A failed renewal's notice is written with the failure, so a kill after the commit loses none. */
  outbox: EventOutbox;
  feePercent: number;
}

export function createRenewals(deps: RenewalDeps) {
  const { db, ledger } = deps;

  /**
   * The ledger accounts the next batch will move, resolved outside the transaction (where the ledger
   * remembers them), so each renewal inside is one statement rather than a lookup per leg first.
   */
  async function warmAccountsOfDue(now: Date, batch: number) {
    const due = await db.select({ subscriberId: subscriptions.subscriberId, creatorId: subscriptions.creatorId, price: subscriptions.price }).from(subscriptions)
      .where(dueAt(now))
      .orderBy(asc(subscriptions.endDate), asc(subscriptions.id)).limit(batch);
    await ledger.warmAccounts(due.flatMap((row) => paymentLegs(row.subscriberId, row.creatorId, row.price, deps.feePercent).legs.map((l) => l.account)));
  }

  /**
   * One batch: claims up to `batch` due subscriptions and renews each. Answers what it
   * claimed, and those whose coins sit partly in receiving shards (gathered after the commit, renewed
   * by the next batch).
   */
  async function renewBatch(now: Date, batch: number, gatheredOnce: Set<number>) {
    await warmAccountsOfDue(now, batch);
    for (let attempt = 1; ; attempt++) {
      try {
        return await claimAndRenew(now, batch, gatheredOnce);
      } catch (error) {
        // Two runs' batches can still meet on a shared row in opposite orders (a subscriber of two
        // creators), or a payment elsewhere can empty a wallet between the guard's read and the
        // charge (the wallet's CHECK fails the statement): the batch rolled back whole, so it is run again.
        const state = sqlState(error);
        const retried = RETRIED_STATES.has(state ?? '') || error instanceof InsufficientFunds;
        if (!retried || attempt >= 5) throw error;
      }
    }
  }

  async function claimAndRenew(now: Date, batch: number, gatheredOnce: Set<number>) {
    return db.transaction(async (tx) => {
      const due = await tx.select().from(subscriptions)
        .where(dueAt(now))
        .orderBy(asc(subscriptions.endDate), asc(subscriptions.id))
        .limit(batch)
        .for('update', { skipLocked: true });
      // The batch's transfers lock the creators' receiving shards and the fee shards, and hold them to
      // the commit: taken in one order (shard, creator) by every run, two runs queue instead of deadlocking.
      due.sort((x, y) => receivingShard(x.subscriberId) - receivingShard(y.subscriberId) || x.creatorId - y.creatorId || x.id - y.id);
      const renewed: SubscriptionRow[] = [];
      const failed: SubscriptionRow[] = [];
      const toGather: SubscriptionRow[] = [];
      for (const row of due) {
        const periodNo = row.periodNo + 1;
        const late = now.getTime() - new Date(row.endDate).getTime() > LATE_RENEWAL_MS;
        const beginDate = late ? now : new Date(row.endDate);
        const { fee, legs } = paymentLegs(row.subscriberId, row.creatorId, row.price, deps.feePercent);
        // The charge happens only when the wallet holds the price (the guard): a short wallet moves
        // nothing and fails no statement, so the batch needs no savepoint per renewal.
        const charge = await ledger.guardedTransfer({
          kind: 'subscription',
          idempotencyKey: renewalKey(row.id, periodNo),
          fromUserId: row.subscriberId,
          toUserId: row.creatorId,
          amount: row.price,
          currency: 'CON',
          details: { subscription_id: row.id, period_no: periodNo, fee, fee_percent: deps.feePercent },
          legs,
        }, { guard: sql`coalesce((${walletBalanceSql(row.subscriberId, 'CON')}), 0) >= ${row.price}` }, tx)
          // A wallet on hold (decision 0057) cannot pay: the subscription ends as for a short wallet.
          .catch((error: unknown) => { if (error instanceof AccountOnHold) return null; throw error; });
        if (charge?.allowed) {
          // The period moves with its charge, in one statement.
          await tx.execute(sql`with moved as (
              update ${subscriptions} set period_no = ${periodNo}, begin_date = ${beginDate}, end_date = ${periodEnd(beginDate, row.period)}
              where id = ${row.id})
            insert into ${subscriptionHistory} (subscription_id, category, detail, transfer_id, created_at)
            values (${row.id}, 'RENEWED', ${`${row.planName}, ${periodLabel(row.period)}: ${coins(row.price)}`}, ${charge.transferId}, ${now})`);
          await deps.outbox.write(tx, 'subscription.changed', { subscriptionId: row.id, subscriberId: row.subscriberId, creatorId: row.creatorId, reason: 'renewed' });
          renewed.push(row);
          continue;
        }
        // Coins received as a creator wait in receiving shards, which cannot be swept inside this
        // transaction: gather them after the commit and try once more.
        const total = (await ledger.balances(row.subscriberId, tx)).CON;
        if (charge && total >= row.price && !gatheredOnce.has(row.id)) {
          toGather.push(row);
          continue;
        }
        await tx.update(subscriptions).set({ state: 'cancelled', autoRenew: false }).where(eq(subscriptions.id, row.id));
        await tx.insert(subscriptionHistory).values(historyRow(row.id, 'RENEWAL_FAILED', charge ? `Not renewed: the wallet did not hold ${coins(row.price)}` : 'Not renewed: the wallet is on hold', null, now));
        // The notifications module tells the subscriber (the bell, and a mail with the price and plan).
        await deps.outbox.write(tx, 'subscription.changed', {
          subscriptionId: row.id, subscriberId: row.subscriberId, creatorId: row.creatorId, reason: 'renewal-failed', price: row.price, plan: row.planName, at: now.toISOString(),
        });
        failed.push(row);
      }
      return { claimed: due.length, renewed, failed, toGather };
    });
  }

  /** Renews every subscription due at `now` (the clock is the caller's: tests run a year in seconds). */
  async function renewDue(now: Date, batch = RENEWAL_BATCH): Promise<RenewalOutcome> {
    const outcome: RenewalOutcome = { renewed: 0, failed: 0 };
    const gatheredOnce = new Set<number>();
    for (;;) {
      const result = await renewBatch(now, batch, gatheredOnce);
      outcome.renewed += result.renewed.length;
      outcome.failed += result.failed.length;
      for (const row of result.toGather) {
        gatheredOnce.add(row.id);
        await ledger.gather(row.subscriberId, 'CON');
      }
      // Every change of the batch is in the outbox: its handlers run on whichever instance delivers them.
      if (result.renewed.length + result.failed.length > 0) deps.outbox.wake();
      // A short batch means nothing more was due (or the rest is another run's): done.
      if (result.claimed < batch && result.toGather.length === 0) break;
      if (result.claimed === 0) break;
    }
    return outcome;
  }

  return { renewDue };
}

export type Renewals = ReturnType<typeof createRenewals>;

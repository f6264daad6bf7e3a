/**
 * Settlements (decisions 0023, 0036): per closed period (a day by default), each referred person's base —
 * the platform fee actually taken on what they earned (AGENT links) or spent (INFLUENCER links) since they
 * were referred — times the programme's share is the referrer's commission, paid out of the fees the
 * platform holds. What earns nothing: payments with the referrer or with another person the same referrer
 * brought in (either way), payments between accounts that share a card or a sign-in address, kinds the
 * platform takes no fee on, and a referred person who shares a card or an address with their referrer.
 * One transaction per period claims it (a row keyed by the period: a second instance waits, then finds it
 * claimed), writes every referred person's row and pays each referrer one ledger transfer from `fees`
 * keyed by referrer and period. A crash rolls all of it back.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ReferralType } from '../../../common/api/referrals';
import type { Db, Executor } from '../../platform/db/client';
import { shareSignInAddressSql } from '../../platform/db/platform-tables';
import { paidActivitySql, type Ledger } from '../ledger';
import { shareCardSql } from '../wallet';
import { referralAttributions, referralCodes, referralCommissions, referralSettlements } from './tables';

/** Paid activity is stamped at the start of its short transaction: a minute after a period closed, all of it has committed. */
export const SETTLEMENT_GRACE_MS = 60_000;
export const SETTLEMENT_EVERY_MS = 60_000;
const PERIODS_PER_RUN = 31;

const iso = (date: Date) => date.toISOString();

export interface SettlementOptions {
  db: Db;
  ledger: Ledger;
  rates: Record<ReferralType, number>;
  periodMs: number;
  log: { warn(obj: object, msg: string): void };
}

export function createReferralSettlement({ db, ledger, rates, periodMs, log }: SettlementOptions) {
  const periodStartOf = (ms: number) => new Date(Math.floor(ms / periodMs) * periodMs);

  /** Whether two accounts (as SQL) are taken for one person: a common card or sign-in address. */
  const onePerson = (a: SQL, b: SQL) => sql`(${shareCardSql(a, b)} or ${shareSignInAddressSql(a, b)})`;

  /**
   * The fees taken on the referred person's payments on one side over [from, to) (only once referred),
   * leaving out payments with the referrer's own circle and between accounts of one person.
   */
  function feesTaken(side: 'payee_id' | 'payer_id', from: Date, to: Date): SQL {
    const mine = sql.raw(`p.${side}`);
    const other = sql.raw(side === 'payee_id' ? 'p.payer_id' : 'p.payee_id');
    return sql`(select coalesce(sum(p.fee), 0) from (${paidActivitySql}) p
      where ${mine} = a.referred_id and p.at >= greatest(${iso(from)}::timestamptz, a.referred_at) and p.at < ${iso(to)}::timestamptz
        and ${other} <> a.referrer_id
        and not exists (select 1 from ${referralAttributions} circle where circle.referred_id = ${other} and circle.referrer_id = a.referrer_id)
        and not ${onePerson(sql`p.payer_id`, sql`p.payee_id`)})`;
  }

  /** Each referred person's base (fees taken) and commission over [from, to). */
  function commissionsSql(from: Date, to: Date, referrerId?: number): SQL {
    return sql`select a.referred_id, a.referrer_id, a.code_id, c.type, b.base,
        floor(b.base * (case c.type when 'AGENT' then ${rates.AGENT}::numeric else ${rates.INFLUENCER}::numeric end))::bigint as earned
      from ${referralAttributions} a join ${referralCodes} c on c.id = a.code_id
      cross join lateral (select case c.type when 'AGENT' then ${feesTaken('payee_id', from, to)} else ${feesTaken('payer_id', from, to)} end as base) b
      where a.referred_at < ${iso(to)}::timestamptz and b.base > 0 and not ${onePerson(sql`a.referred_id`, sql`a.referrer_id`)}
        ${referrerId === undefined ? sql`` : sql`and a.referrer_id = ${referrerId}`}`;
  }

  /** The first period not settled yet; null before anyone was referred. */
  async function nextPeriod(exec: Executor = db): Promise<Date | null> {
    const { rows } = await exec.execute<{ last: string | null; first: string | null }>(sql`select
      (select max(period_end) from ${referralSettlements})::text as last, (select min(referred_at) from ${referralAttributions})::text as first`);
    const row = rows[0];
    if (row?.last) return new Date(row.last);
    return row?.first ? periodStartOf(Date.parse(row.first)) : null;
  }

  async function settle(start: Date): Promise<boolean> {
    const end = new Date(start.getTime() + periodMs);
    // Fees land on receiving shards; only shard 0 pays: gathered first, outside the transaction.
    await ledger.gatherSystem('fees', 'CON');
    return db.transaction(async (tx) => {
      const claimed = await tx.insert(referralSettlements).values({ periodStart: start, periodEnd: end }).onConflictDoNothing().returning();
      if (claimed.length === 0) return false;
      await tx.execute(sql`insert into ${referralCommissions} (period_start, referred_id, referrer_id, code_id, type, base, earned)
        select ${iso(start)}::timestamptz, referred_id, referrer_id, code_id, type, base, earned from (${commissionsSql(start, end)}) c`);
      const { rows } = await tx.execute<{ referrer_id: string; earned: string }>(sql`select referrer_id, sum(earned) as earned
        from ${referralCommissions} where period_start = ${iso(start)}::timestamptz group by referrer_id having sum(earned) > 0`);
      for (const row of rows) {
        const referrerId = Number(row.referrer_id);
        const amount = Number(row.earned);
        const outcome = await ledger.transfer({
          kind: 'referral_commission',
          idempotencyKey: `referral-commission:${referrerId}:${iso(start)}`,
          toUserId: referrerId,
          amount,
          currency: 'CON',
          details: { period_start: iso(start), period_end: iso(end), paid_from: 'fees' },
          legs: [
            { account: { system: 'fees', currency: 'CON' }, amount: -amount },
            { account: { userId: referrerId, currency: 'CON' }, amount },
          ],
        }, tx);
        if (!outcome.created) log.warn({ referrerId, periodStart: start }, 'referral commission of a settled period met its key again; paid once');
        await tx.execute(sql`update ${referralCommissions} set transfer_id = ${outcome.transferId}
          where period_start = ${iso(start)}::timestamptz and referrer_id = ${referrerId}`);
      }
      return true;
    });
  }

  return {
    periodMs,
    /** Settles every closed period due; answers how many this call settled. */
    async run(now: Date = new Date()): Promise<number> {
      let settled = 0;
      for (let i = 0; i < PERIODS_PER_RUN; i++) {
        const start = await nextPeriod();
        if (!start || start.getTime() + periodMs + SETTLEMENT_GRACE_MS > now.getTime()) break;
        if (await settle(start)) settled += 1;
      }
      return settled;
    },

    /** Coins the referrer has accrued since the last settled period (paid when those periods close). */
    async pending(referrerId: number, now: Date = new Date()): Promise<number> {
      const from = await nextPeriod();
      if (!from) return 0;
      const { rows } = await db.execute<{ earned: string | null }>(sql`select sum(earned) as earned from (${commissionsSql(from, now, referrerId)}) c`);
      return Number(rows[0]?.earned ?? 0);
    },
  };
}

export type ReferralSettlement = ReturnType<typeof createReferralSettlement>;

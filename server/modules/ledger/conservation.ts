/**
 * Conservation of money (decision 0036), checked from the books: per currency, what users and the
 * platform's own accounts hold plus what left the platform equals what came in plus what operators
 * granted. Balancing transfers are not enough for that — a transfer from an account nobody funded
 * balances too — so the check also reads where every issued coin came from:
 * - every debit of an issuer account (the mint, the money-in accounts) is recorded money in (a
 *   `deposit` carrying its money leg in a real currency and a payment reference; impressions bought
 *   with coins) or an operator's grant with its audit entry;
 * - no other system account is below zero (it would be paying out what nobody paid in), but the debt
 *   accounts: coins a refund or a dispute took back on credit, owed by their users (decision 0057).
 * Coins paid out to creators leave through the money-out account `paid-out` (decision 0061): its
 * credits count as money out, like coins retired to the mint; a debit of it counts as money out undone
 * only when it is a payout the bank sent back, no more than that payout paid out.
 * It runs beside the ledger invariants after the money suites, in the crash tests, and for operators
 * (`npm run ledger:check`).
 */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { GRANT_AUDIT_ACTION } from './grants';
import { DEBT_PREFIX, ISSUER_ACCOUNTS, MONEY_CURRENCIES, MONEY_IN_ACCOUNTS, MONEY_OUT_ACCOUNTS } from './tables';

/** One currency's books: holdings + moneyOut must equal moneyIn + grants + owed (difference 0). */
export interface CurrencyBooks {
  currency: string;
  /** Users' wallets, receiving shards included. */
  wallets: number;
  /** The platform's own accounts (fees, sales, …): every system account but the issuers and the debts. */
  systemHeld: number;
  /**
   * What users owe (their debt accounts, decision 0057): coins taken back for money that went out again
   * (a refund, a dispute) which their wallets no longer held, because they were spent and are held by others.
   */
  owed: number;
  /** Issued against recorded money in: deposits (coins, cents) and impressions bought with coins. */
  moneyIn: number;
  /** Issued by operators' audited grants. */
  grants: number;
  /** Returned to an issuer: coins retired, money paid back out. */
  moneyOut: number;
  /** wallets + systemHeld + moneyOut − moneyIn − grants − owed: what exists that nobody paid for nor owes (0 when conserved). */
  difference: number;
}

export interface UnfundedIssue {
  transferId: number;
  kind: string;
  /** `<system>:<currency>` of the issuer account debited. */
  account: string;
  amount: number;
  reason: string;
}

export interface ConservationReport {
  currencies: CurrencyBooks[];
  unfundedIssues: UnfundedIssue[];
  negativeSystemAccounts: Array<{ account: string; balance: number }>;
}

const list = (names: readonly string[]) => sql.raw(names.map((name) => `'${name}'`).join(', '));
// The outside world's accounts: the issuers, and where paid-out coins leave (decision 0061).
const issuers = list([...ISSUER_ACCOUNTS, ...MONEY_OUT_ACCOUNTS]);
const moneyInAccounts = list(MONEY_IN_ACCOUNTS);
const moneyOutAccounts = list(MONEY_OUT_ACCOUNTS);
const moneyCurrencies = list(MONEY_CURRENCIES);
const debtPattern = `${DEBT_PREFIX}%`;

const REASONS: Record<string, string> = {
  'no-reference': 'a deposit without a payment reference',
  'no-money-leg': 'a deposit without its money leg (money paid in on an outside account in USD or CAD)',
  'unaudited-grant': 'a grant without its audit entry',
  'unpaid-return': 'taken back from the money-out account by a transfer that is not the return of a payout paid out earlier',
  unfunded: 'issued by a transfer that is neither recorded money in nor an audited grant',
};

type Num = string | number;

/** Reads the books and answers the figures and every violation found. */
export async function checkConservation(db: Executor): Promise<ConservationReport> {
  // Each transfer's net movement on each issuer account, classified by where it came from.
  const { rows: legs } = await db.execute<{ transfer_id: Num; kind: string; system: string; currency: string; amount: Num; class: string }>(sql`
    with issuer_legs as (
      select e.transfer_id, a.system, a.currency, sum(e.amount)::bigint as amount
      from ledger_entries e join ledger_accounts a on a.id = e.account_id
      where a.system in (${issuers}) group by e.transfer_id, a.system, a.currency
    )
    select l.transfer_id, t.kind, l.system, l.currency, l.amount,
      case
        when l.amount >= 0 then 'out'
        when l.system in (${moneyOutAccounts}) and t.kind = 'payout' and t.details->>'payout_request' is not null and (select coalesce(sum(pe.amount), 0)
          from ledger_transfers p join ledger_entries pe on pe.transfer_id = p.id join ledger_accounts pa on pa.id = pe.account_id
          where p.id <= t.id and p.kind = 'payout' and p.details->>'payout_request' = t.details->>'payout_request'
            and pa.system = l.system and pa.currency = l.currency) >= 0 then 'out'
        when l.system in (${moneyOutAccounts}) then 'unpaid-return'
        when t.kind = 'deposit' and coalesce(t.details->>'payment_reference', t.details->>'payment_id', '') = '' then 'no-reference'
        when t.kind = 'deposit' and exists (select 1 from ledger_entries m join ledger_accounts ma on ma.id = m.account_id
          where m.transfer_id = t.id and m.amount < 0 and ma.system in (${moneyInAccounts}) and ma.currency in (${moneyCurrencies})) then 'in'
        when t.kind = 'deposit' then 'no-money-leg'
        when t.kind = 'grant' and l.system = 'mint' and l.currency = 'CON' and exists (select 1 from audit_log g
          where g.action = ${GRANT_AUDIT_ACTION} and g.target_type = 'user' and g.target_id = t.to_user_id::text
            and g.after->>'transfer_id' = t.id::text and (g.after->>'coins')::bigint = -l.amount) then 'grant'
        when t.kind = 'grant' then 'unaudited-grant'
        when t.kind = 'impressions' and l.system = 'mint' and l.currency = 'IMP' and exists (select 1 from ledger_entries p
          join ledger_accounts pa on pa.id = p.account_id
          where p.transfer_id = t.id and p.amount > 0 and pa.currency = 'CON' and pa.system is not null and pa.system not in (${issuers})) then 'in'
        else 'unfunded'
      end as class
    from issuer_legs l join ledger_transfers t on t.id = l.transfer_id
    where l.amount <> 0
    order by l.transfer_id, l.system, l.currency`);
  const { rows: held } = await db.execute<{ currency: string; wallets: Num | null; system_held: Num | null; owed: Num | null }>(sql`
    select currency, sum(balance) filter (where user_id is not null)::bigint as wallets,
      sum(balance) filter (where system is not null and system not in (${issuers}) and system not like ${debtPattern})::bigint as system_held,
      (-sum(balance) filter (where system like ${debtPattern}))::bigint as owed
    from ledger_accounts group by currency order by currency`);
  const { rows: negative } = await db.execute<{ system: string; currency: string; shard: Num; balance: Num }>(sql`
    select system, currency, shard, balance from ledger_accounts
    where system is not null and system not in (${issuers}) and system not like ${debtPattern} and balance < 0 order by system, currency, shard`);

  const books = new Map<string, CurrencyBooks>();
  const of = (currency: string) => {
    let entry = books.get(currency);
    if (!entry) books.set(currency, (entry = { currency, wallets: 0, systemHeld: 0, owed: 0, moneyIn: 0, grants: 0, moneyOut: 0, difference: 0 }));
    return entry;
  };
  for (const row of held) Object.assign(of(row.currency), { wallets: Number(row.wallets ?? 0), systemHeld: Number(row.system_held ?? 0), owed: Number(row.owed ?? 0) });
  const unfundedIssues: UnfundedIssue[] = [];
  for (const leg of legs) {
    const amount = Number(leg.amount);
    const entry = of(leg.currency);
    if (leg.class === 'out') entry.moneyOut += amount;
    else if (leg.class === 'in') entry.moneyIn -= amount;
    else if (leg.class === 'grant') entry.grants -= amount;
    else unfundedIssues.push({ transferId: Number(leg.transfer_id), kind: leg.kind, account: `${leg.system}:${leg.currency}`, amount: -amount, reason: REASONS[leg.class] ?? leg.class });
  }
  for (const entry of books.values()) entry.difference = entry.wallets + entry.systemHeld + entry.moneyOut - entry.moneyIn - entry.grants - entry.owed;
  return {
    currencies: [...books.values()].sort((x, y) => x.currency.localeCompare(y.currency)),
    unfundedIssues,
    negativeSystemAccounts: negative.map((r) => ({ account: `${r.system}:${r.currency}${Number(r.shard) ? `:${Number(r.shard)}` : ''}`, balance: Number(r.balance) })),
  };
}

/** Every violation as a sentence (empty when money is conserved). */
export function conservationViolations(report: ConservationReport): string[] {
  return [
    ...report.currencies.filter((c) => c.difference !== 0).map((c) =>
      `${c.currency}: users hold ${c.wallets} and system accounts ${c.systemHeld}, ${c.moneyOut} went out, but only ${c.moneyIn} came in and ${c.grants} were granted${c.owed ? ` (${c.owed} are owed)` : ''}: ${c.difference} unaccounted for`),
    ...report.unfundedIssues.map((u) => `transfer ${u.transferId} (${u.kind}) took ${u.amount} from ${u.account}: ${u.reason}`),
    ...report.negativeSystemAccounts.map((a) => `system account ${a.account} is at ${a.balance}: it paid out what nobody paid in`),
  ];
}

/** The report for a person: the figures per currency, then each violation, or that money is conserved. */
export function formatConservation(report: ConservationReport): string {
  const figures = report.currencies.map((c) =>
    `${c.currency}: wallets ${c.wallets} + system ${c.systemHeld} + out ${c.moneyOut} = in ${c.moneyIn} + grants ${c.grants}${c.owed ? ` + owed ${c.owed}` : ''}${c.difference === 0 ? '' : ` (off by ${c.difference})`}`);
  const violations = conservationViolations(report);
  return [...figures, ...(violations.length === 0 ? ['Money is conserved: no violations.'] : violations.map((v) => `VIOLATION ${v}`))].join('\n');
}

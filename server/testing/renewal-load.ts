/**
 * Renewals at scale, shared by the renewal tests (several runners at once, kill -9 mid-run) and
 * bench/renewals.ts: many due subscriptions written straight into a PostgreSQL database (subscribers
 * funded through the ledger), a renewal runner on its own connection pool (what an instance's job
 * runs), and the audit of what the runs did.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createDomainEventHub } from '../platform/events';
import { openDatabase, type Database } from '../platform/db/client';
import { applyMigrations } from '../platform/db/migrate';
import { createLedger } from '../modules/ledger';
import { createRenewals, ensurePlanTemplates } from '../modules/subscriptions';
import { createEventOutbox } from '../platform/event-outbox';
import { ledgerViolations, provisionTippers, violationCount } from './tip-load';

/** The fee the runners charge (config PLATFORM_FEES' default for subscriptions). */
export const RENEWAL_FEE_PERCENT = 20;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

export interface DueSubscriptions {
  creatorId: number;
  subscriberIds: number[];
  subscriptionIds: number[];
}

/** Migrates the database and seeds the plan templates (what a server does at start). */
export async function prepareDatabase(url: string): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
  try {
    await applyMigrations(database.pool);
    await ensurePlanTemplates(database.db);
  } finally {
    await database.close();
  }
}

/**
 * `count` subscribers, each with `coins` coins and a monthly subscription of `price` coins to one
 * creator, its first period ended at `endDate` (due for renewal from then on).
 */
export async function seedDueSubscriptions(url: string, options: { count: number; coins: number; price: number; endDate: Date }): Promise<DueSubscriptions> {
  const [creator] = await provisionTippers(url, 1, 0, 'creator');
  const subscribers = await provisionTippers(url, options.count, options.coins, 'subscriber');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const { rows: [plan] } = await pool.query<{ id: string }>(
      `insert into subscription_plans (user_id, template_id, name, description, level, benefits, price, currency, period)
       select $1, id, name, description, level, benefits, $2, 'CON', 'RMONTH:1' from plan_templates where code = 'fan' returning id`,
      [creator!.userId, options.price],
    );
    const begin = new Date(options.endDate.getTime() - 30 * 24 * 3600_000);
    const { rows } = await pool.query<{ id: string }>(
      `insert into subscriptions (subscriber_id, creator_id, plan_id, plan_name, plan_level, benefits, price, currency, period, auto_renew, begin_date, end_date)
       select s, $1, p.id, p.name, p.level, p.benefits, p.price, 'CON', p.period, true, $3, $4
       from unnest($2::bigint[]) s, subscription_plans p where p.id = $5 returning id`,
      [creator!.userId, subscribers.map((s) => s.userId), begin, options.endDate, Number(plan!.id)],
    );
    return { creatorId: creator!.userId, subscriberIds: subscribers.map((s) => s.userId), subscriptionIds: rows.map((r) => Number(r.id)) };
  } finally {
    await pool.end();
  }
}

/** A renewal runner on its own pool, as one instance's job runs it. */
export async function renewalRunner(url: string, poolSize = 4) {
  const database: Database = await openDatabase({ kind: 'postgres', url, poolSize });
  const { db } = database;
  const events = createDomainEventHub(quiet);
  const renewals = createRenewals({
    db,
    ledger: createLedger({ db, namedInTransactions: true }),
    outbox: createEventOutbox({ db, events, log: quiet }),
    feePercent: RENEWAL_FEE_PERCENT,
  });
  return { renewDue: renewals.renewDue, close: () => database.close() };
}

export interface RenewalAudit {
  /** (subscription, period) pairs charged more than once. */
  doubleCharges: number;
  /** Subscriptions whose period number disagrees with their charges (1 + renewals). */
  periodMismatches: number;
  /** Renewal charges in all. */
  renewals: number;
  /** Subscriptions still due at `now` (enabled, auto-renewing, period ended). */
  stillDue: number;
  /** Subscribers whose coins are not what they started with less what they were charged. */
  wrongBalances: number;
  ledgerViolations: number;
}

/** What the runs did, read from the books and the subscriptions. */
export async function auditRenewals(url: string, due: DueSubscriptions, coinsEach: number, now: Date): Promise<RenewalAudit> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 1 });
  try {
    const one = async (query: ReturnType<typeof sql>) => Number(((await database.db.execute(query)).rows[0] as { n: number | string }).n);
    const ids = `{${due.subscriptionIds.join(',')}}`;
    const charges = sql`select (details->>'subscription_id')::bigint as s, (details->>'period_no')::int as p, count(*) as c
      from ledger_transfers where kind = 'subscription' and (details->>'subscription_id')::bigint = any(${ids}::bigint[]) group by 1, 2`;
    return {
      doubleCharges: await one(sql`select count(*) as n from (${charges}) c where c.c > 1`),
      periodMismatches: await one(sql`select count(*) as n from subscriptions s
        left join (select c.s, sum(c.c) as n from (${charges}) c group by c.s) per on per.s = s.id
        where s.id = any(${ids}::bigint[]) and s.period_no <> 1 + coalesce(per.n, 0)`),
      renewals: await one(sql`select coalesce(sum(c.c), 0) as n from (${charges}) c`),
      stillDue: await one(sql`select count(*) as n from subscriptions where id = any(${ids}::bigint[]) and state = 'enabled' and auto_renew and end_date <= ${now}`),
      wrongBalances: await one(sql`select count(*) as n from subscriptions s
        where s.id = any(${ids}::bigint[]) and (select coalesce(sum(balance), 0) from ledger_accounts a where a.user_id = s.subscriber_id and a.currency = 'CON')
          <> ${coinsEach} - s.price * (s.period_no - 1)`),
      ledgerViolations: violationCount(await ledgerViolations(url)),
    };
  } finally {
    await database.close();
  }
}

/**
 * Private shows at scale, for bench/show-billing.ts: many live private shows written straight into a
 * PostgreSQL database (a broadcaster with a live stream and a buyer funded through the ledger each, the
 * buyer's seat due), the shows service's billing on its own connection pool (what one instance's
 * `bill-show-minutes` job runs), and the audit of the minutes the runs billed.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../platform/db/client';
import { createDomainEventHub } from '../platform/events';
import type { ModuleContext, ModuleServices, ServiceName } from '../platform/module';
import { createLedger, paymentLegs, type Ledger } from '../modules/ledger';
import { createShowsModule } from '../modules/shows';
import type { StreamRow } from '../modules/streams';
import { conservationViolationsAt, ledgerViolations, provisionTippers, violationCount } from './tip-load';

/** The fee the runners charge (config PLATFORM_FEES' default for show minutes). */
export const SHOW_FEE_PERCENT = 20;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

export interface LiveShows {
  showIds: number[];
  buyerIds: number[];
  broadcasterIds: number[];
  price: number;
  coins: number;
}

/**
 * `count` private shows on as many live streams, each with its buyer's seat active, heard from now, and
 * due (paid up to a second ago, no minute billed yet); each buyer holds `coins` coins.
 */
export async function seedLiveShows(url: string, options: { count: number; coins: number; price: number }): Promise<LiveShows> {
  const broadcasters = await provisionTippers(url, options.count, 0, 'broadcaster');
  const buyers = await provisionTippers(url, options.count, options.coins, 'buyer');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const { rows } = await pool.query<{ show_id: string; buyer: string }>(
      `with pairs as (select * from unnest($1::bigint[], $2::bigint[]) as p(broadcaster, buyer)),
       st as (insert into streams (user_id, title, hidden, live, setup_at, started_at)
         select broadcaster, 'Show bench', false, true, now(), now() from pairs returning id, user_id),
       sh as (insert into shows (stream_id, broadcaster_id, kind, state, price_per_minute, requested_by, started_at)
         select st.id, st.user_id, 'private', 'live', $3, pairs.buyer, now() from st join pairs on pairs.broadcaster = st.user_id
         returning id, broadcaster_id, requested_by)
       insert into show_seats (show_id, user_id, role, state, price_per_minute, paid_until, seen_at)
       select sh.id, sh.requested_by, 'buyer', 'active', $3, now() - interval '1 second', now() from sh
       returning show_id, user_id as buyer`,
      [broadcasters.map((b) => b.userId), buyers.map((b) => b.userId), options.price],
    );
    const broadcasterOf = new Map(buyers.map((b, i) => [b.userId, broadcasters[i]!.userId]));
    return {
      showIds: rows.map((r) => Number(r.show_id)),
      buyerIds: rows.map((r) => Number(r.buyer)),
      broadcasterIds: rows.map((r) => broadcasterOf.get(Number(r.buyer))!),
      price: options.price,
      coins: options.coins,
    };
  } finally {
    await pool.end();
  }
}

/** The next minute: every seat's paid time moved a minute back (so it is due again), its viewer heard from now. */
export async function nextMinute(url: string, shows: LiveShows, minuteMs: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await pool.query(`update show_seats set paid_until = paid_until - make_interval(secs => $2), seen_at = now() where show_id = any($1::bigint[])`,
      [shows.showIds, minuteMs / 1000]);
  } finally {
    await pool.end();
  }
}

/**
 * The shows service on its own pool, built by the shows module itself (its entry: the fee from config,
 * the grace its minute allows) with stand-ins for the services the billing barely uses: people's names
 * (none), the chat's publish (counted), a stream read by id. Its ledger counts and times the charges.
 */
export async function showBillingRunner(url: string, options: { minuteMs: number; poolSize?: number }) {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: options.poolSize ?? 4 });
  const { db } = database;
  const real = createLedger({ db, namedInTransactions: true });
  const charges = { count: 0, ms: 0 };
  const ledger: Ledger = {
    ...real,
    async guardedTransfer(...args) {
      const t0 = performance.now();
      try {
        return await real.guardedTransfer(...args);
      } finally {
        charges.count += 1;
        charges.ms += performance.now() - t0;
      }
    },
  };
  let published = 0;
  const findStream = async (streamId: number) => {
    const { rows: [row] } = await db.execute(sql`select id, user_id as "userId", live, skin from streams where id = ${streamId} and deleted_at is null`);
    if (!row) throw new Error(`no stream ${streamId}`);
    return row as unknown as StreamRow;
  };
  const standIns: Partial<ModuleServices> = {
    ledger,
    accounts: { publicUsers: async () => new Map() } as Partial<ModuleServices['accounts']> as ModuleServices['accounts'],
    chat: { publish: async () => void (published += 1) } as Partial<ModuleServices['chat']> as ModuleServices['chat'],
    streamReads: {
      findStream,
      ownStream: async (streamId, principal) => {
        const row = await findStream(streamId);
        if (row.userId !== principal.userId) throw new Error(`stream ${streamId} is not ${principal.userId}'s`);
        return row;
      },
    } as Partial<ModuleServices['streamReads']> as ModuleServices['streamReads'],
    streamAccess: { lookup: (streamId) => findStream(streamId) } as Partial<ModuleServices['streamAccess']> as ModuleServices['streamAccess'],
  };
  const context: Partial<ModuleContext> = {
    db,
    events: createDomainEventHub(quiet),
    config: { showMinuteMs: options.minuteMs, platformFees: { show_minute: SHOW_FEE_PERCENT } } as Partial<ModuleContext['config']> as ModuleContext['config'],
    service: <K extends ServiceName>(name: K) => standIns[name] as ModuleServices[K],
    fill: () => {},
  };
  const shows = createShowsModule(context as ModuleContext).services!.shows!;
  return {
    /** Resolves the seats' accounts once, as a running instance has them remembered. */
    warm: (live: LiveShows) => real.warmAccounts(live.buyerIds.flatMap((buyer, i) => paymentLegs(buyer, live.broadcasterIds[i]!, live.price, SHOW_FEE_PERCENT).legs.map((l) => l.account))),
    /** Runs the billing job until a run bills nothing more. */
    async billDue(): Promise<{ paid: number; ended: number; runs: number }> {
      const total = { paid: 0, ended: 0, runs: 0 };
      for (;;) {
        const { paid, ended } = await shows.bill();
        total.runs += 1;
        total.paid += paid;
        total.ended += ended;
        if (paid + ended === 0) return total;
      }
    },
    stats: () => ({ charges: charges.count, chargeMs: charges.ms, published }),
    close: () => database.close(),
  };
}

export interface ShowAudit {
  seats: number;
  /** `show_minute` transfers of the seats in all. */
  minutes: number;
  /** Seats without one of the minutes' keys `show:<show>:<user>:0..minutes-1`: minutes missed. */
  missedMinutes: number;
  /** Seats charged more transfers than minutes: minutes billed twice. */
  doubleCharged: number;
  /** Seats whose counts (minutes billed, coins paid, state) disagree with `minutes`. */
  seatMismatches: number;
  /** Seats still due, or ended. */
  stillDue: number;
  ended: number;
  /** What the buyers lost, what the broadcasters and the fees account gained. */
  buyersLost: number;
  broadcastersGained: number;
  feesGained: number;
  ledgerViolations: number;
  conservationViolations: string[];
}

/** What the runs billed, read from the books and the seats, `minutes` expected of each seat. */
export async function auditShows(url: string, live: LiveShows, minutes: number): Promise<ShowAudit> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const one = async (text: string, values: unknown[] = []) => Number((await pool.query<{ n: string }>(text, values)).rows[0]!.n);
    const ids = [live.showIds];
    const charges = `select count(*) from ledger_transfers t where t.kind = 'show_minute' and t.from_user_id = s.user_id and (t.details->>'show_id')::bigint = s.show_id`;
    const keyed = `select count(*) from ledger_transfers t where t.idempotency_key in
      (select 'show:' || s.show_id || ':' || s.user_id || ':' || g from generate_series(0, $2::int - 1) g)`;
    const wallets = (users: number[]) => one(`select coalesce(sum(balance), 0) as n from ledger_accounts where user_id = any($1::bigint[]) and currency = 'CON'`, [users]);
    return {
      seats: await one(`select count(*) as n from show_seats where show_id = any($1::bigint[])`, ids),
      minutes: await one(`select coalesce(sum((${charges})), 0) as n from show_seats s where s.show_id = any($1::bigint[])`, ids),
      missedMinutes: await one(`select coalesce(sum($2::int - (${keyed})), 0) as n from show_seats s where s.show_id = any($1::bigint[])`, [live.showIds, minutes]),
      doubleCharged: await one(`select count(*) as n from show_seats s where s.show_id = any($1::bigint[]) and (${charges}) > $2`, [live.showIds, minutes]),
      seatMismatches: await one(`select count(*) as n from show_seats s where s.show_id = any($1::bigint[])
        and (s.minutes_billed <> $2 or s.coins_paid <> $2 * s.price_per_minute or s.state <> 'active')`, [live.showIds, minutes]),
      stillDue: await one(`select count(*) as n from show_seats where show_id = any($1::bigint[]) and state = 'active' and paid_until <= now()`, ids),
      ended: await one(`select count(*) as n from show_seats where show_id = any($1::bigint[]) and state = 'ended'`, ids),
      buyersLost: live.coins * live.buyerIds.length - (await wallets(live.buyerIds)),
      broadcastersGained: await wallets(live.broadcasterIds),
      feesGained: await one(`select coalesce(sum(balance), 0) as n from ledger_accounts where system = 'fees' and user_id is null and currency = 'CON'`),
      ledgerViolations: violationCount(await ledgerViolations(url)),
      conservationViolations: await conservationViolationsAt(url),
    };
  } finally {
    await pool.end();
  }
}

/** Whether the audit found every seat billed exactly `minutes` minutes at `price`, and the books sound. */
export function showAuditPasses(audit: ShowAudit, live: LiveShows, minutes: number): boolean {
  const seats = live.showIds.length;
  return audit.seats === seats && audit.minutes === seats * minutes && audit.missedMinutes === 0 && audit.doubleCharged === 0
    && audit.seatMismatches === 0 && audit.stillDue === 0 && audit.ended === 0
    && audit.buyersLost === seats * minutes * live.price && audit.buyersLost === audit.broadcastersGained + audit.feesGained
    && audit.ledgerViolations === 0 && audit.conservationViolations.length === 0;
}

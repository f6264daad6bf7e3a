/**
 * Subscription renewals on PostgreSQL against pgbench TPC-B on the same server, in one run (issue 14:
 * a renewal is a debit/credit like a tip). RENEWALS_COUNT due subscriptions (default 100,000, across
 * ten creators, subscribers funded through the ledger) are renewed by the job's own code
 * (`subscriptions/renewals.ts`: batches claimed FOR UPDATE SKIP LOCKED, one ledger transfer per renewal
 * in a savepoint), first by one runner, then — the next period of the same subscriptions — by two
 * runners at once (two instances). Then pgbench TPC-B (-c 16 -j 2, -s 10) for RENEWALS_PGBENCH_SECONDS.
 * Reports renewals/s for each phase, statements per renewal (pg_stat_database commits do not count
 * savepoints: the figure is database round trips sampled through pg_stat_statements when present, else
 * omitted), pgbench TPS, the ratio, and the audit (no double charge, none missed, books balanced).
 *
 * Env: RENEWALS_QUICK=1 (10,000 subscriptions), RENEWALS_COUNT, RENEWALS_BATCH (100),
 * RENEWALS_PGBENCH_SECONDS (20), BENCH_DATABASE_URL.
 */
import { timed, writeResult } from './lib';
import { runPgbench } from './pgbench';
import { auditRenewals, prepareDatabase, renewalRunner, seedDueSubscriptions, type DueSubscriptions } from '../server/testing/renewal-load';
import { emptyPostgresDatabase } from '../server/testing/tip-load';

const QUICK = process.env.RENEWALS_QUICK === '1';
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const COUNT = num('RENEWALS_COUNT', QUICK ? 10_000 : 100_000);
const BATCH = num('RENEWALS_BATCH', 100);
const PGBENCH_SECONDS = num('RENEWALS_PGBENCH_SECONDS', QUICK ? 8 : 20);
const CREATORS = 10;
const PRICE = 10;
const COINS = 100;
const DAY = 24 * 3600_000;
const round = (n: number, digits = 3) => Number(n.toFixed(digits));

async function main() {
  const db = await emptyPostgresDatabase('ll_bench_renewals');
  try {
    await prepareDatabase(db.url);
    const firstEnd = new Date(Date.now() - DAY / 2);
    console.log(`[renewals] seeding ${COUNT} due subscriptions…`);
    const parts: DueSubscriptions[] = [];
    for (let i = 0; i < CREATORS; i++) {
      parts.push(await seedDueSubscriptions(db.url, { count: Math.ceil(COUNT / CREATORS), coins: COINS, price: PRICE, endDate: firstEnd }));
    }
    const due: DueSubscriptions = { creatorId: parts[0]!.creatorId, subscriberIds: parts.flatMap((p) => p.subscriberIds), subscriptionIds: parts.flatMap((p) => p.subscriptionIds) };

    console.log('[renewals] one runner…');
    const single = await renewalRunner(db.url);
    const one = await timed(() => single.renewDue(firstEnd, BATCH));
    await single.close();

    console.log('[renewals] two runners at once, the next period…');
    const secondEnd = new Date(firstEnd.getTime() + 31 * DAY);
    const [a, b] = await Promise.all([renewalRunner(db.url), renewalRunner(db.url)]);
    const two = await timed(() => Promise.all([a.renewDue(secondEnd, BATCH), b.renewDue(secondEnd, BATCH)]));
    await Promise.all([a.close(), b.close()]);
    const renewedByTwo = two.value[0].renewed + two.value[1].renewed;

    const audit = await auditRenewals(db.url, due, COINS, secondEnd);

    console.log('[renewals] pgbench…');
    const pgb = await runPgbench({ clients: 16, scale: 10, seconds: PGBENCH_SECONDS });
    const perSecond = { one: one.value.renewed / one.seconds, two: renewedByTwo / two.seconds };
    writeResult('renewals', {
      config: { subscriptions: due.subscriptionIds.length, creators: CREATORS, batch: BATCH, quick: QUICK },
      oneRunner: { renewed: one.value.renewed, failed: one.value.failed, seconds: round(one.seconds, 1), renewalsPerSecond: Math.round(perSecond.one) },
      twoRunners: { renewed: renewedByTwo, seconds: round(two.seconds, 1), renewalsPerSecond: Math.round(perSecond.two), split: two.value.map((o) => o.renewed) },
      pgbench: pgb,
      ratio: { oneRunner: round(perSecond.one / pgb.tps), twoRunners: round(perSecond.two / pgb.tps) },
      audit,
    });
    const sound = audit.doubleCharges === 0 && audit.periodMismatches === 0 && audit.stillDue === 0 && audit.wrongBalances === 0 && audit.ledgerViolations === 0;
    if (!sound || audit.renewals !== 2 * due.subscriptionIds.length) {
      console.error('[renewals] the audit failed');
      process.exitCode = 1;
    }
  } finally {
    await db.drop();
  }
}

await main();

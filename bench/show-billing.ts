/**
 * Private shows' per-minute billing on PostgreSQL against pgbench TPC-B on the same server, in one run
 * (decision 0085: each active seat pays each minute at its start, one ledger statement a minute).
 * SHOWS_COUNT private shows (default 1,000) are live at once, each with its buyer's seat due; the
 * shows service's own billing (`bill()`, what the `bill-show-minutes` job runs: up to 500 due seats
 * a run, 4 at a time) bills a minute of every seat, first by one runner, then — the next minute of the
 * same seats — by two runners at once (two instances). Then pgbench TPC-B (-c 16 -j 2, -s 10) for
 * SHOWS_PGBENCH_SECONDS. Reports seats/s for each, ms per seat, how much of the minute one round takes
 * (an instance's headroom), pgbench TPS, the ratio, and the audit (no minute billed twice, none missed,
 * books balanced and money conserved). The runners' account ids are resolved before they are timed, as
 * a running instance has them remembered.
 *
 * Env: SHOWS_QUICK=1 (pgbench 8 s), SHOWS_COUNT, SHOWS_PGBENCH_SECONDS (20), SHOW_MINUTE_MS (60000),
 * BENCH_DATABASE_URL.
 */
import { timed, writeResult } from './lib';
import { runPgbench } from './pgbench';
import { prepareDatabase } from '../server/testing/renewal-load';
import { auditShows, nextMinute, seedLiveShows, showAuditPasses, showBillingRunner } from '../server/testing/show-load';
import { emptyPostgresDatabase } from '../server/testing/tip-load';

const QUICK = process.env.SHOWS_QUICK === '1';
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const COUNT = num('SHOWS_COUNT', 1000);
const PGBENCH_SECONDS = num('SHOWS_PGBENCH_SECONDS', QUICK ? 8 : 20);
const MINUTE_MS = num('SHOW_MINUTE_MS', 60_000);
const PRICE = 10;
const COINS = 100;
const round = (n: number, digits = 3) => Number(n.toFixed(digits));

async function main() {
  const db = await emptyPostgresDatabase('ll_bench_shows');
  try {
    await prepareDatabase(db.url);
    console.log(`[show-billing] seeding ${COUNT} live private shows…`);
    const live = await seedLiveShows(db.url, { count: COUNT, coins: COINS, price: PRICE });

    console.log('[show-billing] one runner, the first minute…');
    const single = await showBillingRunner(db.url, { minuteMs: MINUTE_MS });
    await single.warm(live);
    const one = await timed(() => single.billDue());
    const oneStats = single.stats();
    await single.close();

    console.log('[show-billing] two runners at once, the next minute…');
    await nextMinute(db.url, live, MINUTE_MS);
    const [a, b] = await Promise.all([showBillingRunner(db.url, { minuteMs: MINUTE_MS }), showBillingRunner(db.url, { minuteMs: MINUTE_MS })]);
    await Promise.all([a.warm(live), b.warm(live)]);
    const two = await timed(() => Promise.all([a.billDue(), b.billDue()]));
    const twoStats = [a.stats(), b.stats()];
    await Promise.all([a.close(), b.close()]);
    const billedByTwo = two.value[0].paid + two.value[1].paid;
    const attemptsByTwo = twoStats[0]!.charges + twoStats[1]!.charges;

    const audit = await auditShows(db.url, live, 2);
    const passed = showAuditPasses(audit, live, 2);

    console.log('[show-billing] pgbench…');
    const pgb = await runPgbench({ clients: 16, scale: 10, seconds: PGBENCH_SECONDS });
    const perSecond = { one: one.value.paid / one.seconds, two: billedByTwo / two.seconds };
    const minuteShare = (seconds: number) => round((100 * seconds * 1000) / MINUTE_MS, 2);
    writeResult('show-billing', {
      config: { shows: COUNT, price: PRICE, minuteMs: MINUTE_MS, batch: 500, width: 4, quick: QUICK },
      oneRunner: {
        billed: one.value.paid, ended: one.value.ended, runs: one.value.runs, seconds: round(one.seconds),
        seatsPerSecond: Math.round(perSecond.one), msPerSeat: round((one.seconds * 1000) / one.value.paid),
        chargeMsMean: round(oneStats.chargeMs / oneStats.charges), percentOfMinute: minuteShare(one.seconds),
        seatsPerMinute: Math.floor(perSecond.one * (MINUTE_MS / 1000)),
      },
      twoRunners: {
        billed: billedByTwo, ended: two.value[0].ended + two.value[1].ended, seconds: round(two.seconds), seatsPerSecond: Math.round(perSecond.two),
        msPerSeat: round((two.seconds * 1000) / billedByTwo), percentOfMinute: minuteShare(two.seconds),
        split: two.value.map((o) => o.paid), charges: attemptsByTwo, chargesFoundDone: attemptsByTwo - billedByTwo,
      },
      pgbench: pgb,
      ratio: { oneRunner: round(perSecond.one / pgb.tps), twoRunners: round(perSecond.two / pgb.tps) },
      audit: { ...audit, passed },
    });
    console.log(`\n[show-billing] ${COUNT} concurrent private shows: one runner billed a minute of every seat in ${round(one.seconds, 2)} s `
      + `(${Math.round(perSecond.one)} seats/s, ${round((one.seconds * 1000) / one.value.paid, 2)} ms a seat), ${minuteShare(one.seconds)} % of the `
      + `${MINUTE_MS / 1000} s minute, so one instance bills about ${Math.floor(perSecond.one * (MINUTE_MS / 1000)).toLocaleString('en')} seats a minute; `
      + `two runners billed the next minute in ${round(two.seconds, 2)} s (${Math.round(perSecond.two)} seats/s, split ${two.value.map((o) => o.paid).join('/')}, `
      + `${attemptsByTwo - billedByTwo} charges found the minute already paid); pgbench TPC-B ran ${pgb.tps} TPS, so billed seats/s are `
      + `${round(perSecond.one / pgb.tps, 2)}× (one runner) and ${round(perSecond.two / pgb.tps, 2)}× (two) of it; the audit `
      + `${passed ? 'passed' : 'FAILED'}: ${audit.minutes} minutes billed, ${audit.missedMinutes} missed, ${audit.doubleCharged} seats billed twice, `
      + `buyers lost ${audit.buyersLost} = broadcasters ${audit.broadcastersGained} + fees ${audit.feesGained}, `
      + `${audit.ledgerViolations} ledger and ${audit.conservationViolations.length} conservation violations.`);
    if (!passed) {
      console.error('[show-billing] the audit failed');
      process.exitCode = 1;
    }
  } finally {
    await db.drop();
  }
}

await main();

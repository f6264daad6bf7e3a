/**
 * Show billing with several instances at once and after kill -9, on PostgreSQL (the project with
 * TEST_DB_KIND postgres): every seat's minute is paid once, none is missed, the books balance.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../../testing/renewal-load';
import { auditShows, nextMinute, seedLiveShows, showAuditPasses, showBillingRunner } from '../../testing/show-load';
import { emptyPostgresDatabase } from '../../testing/tip-load';
import { eventually } from '../../testing/eventually';

const MINUTE_MS = 60_000;
const COINS = 1000;
const PRICE = 10;

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('show billing at scale', () => {
  // A database per test: the audit reads the platform's whole fees account.
  let database: Awaited<ReturnType<typeof emptyPostgresDatabase>>;
  beforeEach(async () => {
    database = await emptyPostgresDatabase('ll_shows');
    await prepareDatabase(database.url);
  });
  afterEach(async () => {
    await database?.drop();
  });

  it('shares the due seats between two instances, minute after minute, paying each minute once', async () => {
    const live = await seedLiveShows(database.url, { count: 200, coins: COINS, price: PRICE });
    const [a, b] = await Promise.all([showBillingRunner(database.url, { minuteMs: MINUTE_MS }), showBillingRunner(database.url, { minuteMs: MINUTE_MS })]);
    try {
      for (let minute = 1; minute <= 3; minute++) {
        if (minute > 1) await nextMinute(database.url, live, MINUTE_MS);
        const [one, two] = await Promise.all([a.billDue(), b.billDue()]);
        expect(one.paid + two.paid).toBe(200);
        const audit = await auditShows(database.url, live, minute);
        expect(audit, JSON.stringify(audit)).toSatisfy(() => showAuditPasses(audit, live, minute));
      }
      // Each charge attempted was a minute paid: the claims kept the two from charging the same seats.
      expect(a.stats().charges + b.stats().charges).toBe(600);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('bills no minute twice and misses none when the billing process is killed mid-run', async () => {
    const live = await seedLiveShows(database.url, { count: 1000, coins: COINS, price: PRICE });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const billedSoFar = async () =>
      Number((await client.query<{ n: string }>(`select count(*) as n from show_seats where show_id = any($1::bigint[]) and minutes_billed > 0`, [live.showIds])).rows[0]!.n);
    try {
      const worker = spawn(process.execPath, ['--import', 'tsx', 'server/testing/show-worker.ts', database.url, String(MINUTE_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      await eventually(billedSoFar, (n) => n >= 50, 30_000, 20);
      worker.kill('SIGKILL');
      await exited;
      const before = await billedSoFar();
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(1000);
      // What the killed run left: a seat's minute and its coins together, or neither.
      const cut = await client.query<{ n: string }>(`select count(*) as n from show_seats s where s.show_id = any($1::bigint[])
        and s.minutes_billed <> (select count(*) from ledger_transfers t where t.idempotency_key = 'show:' || s.show_id || ':' || s.user_id || ':0')`, [live.showIds]);
      expect(Number(cut.rows[0]!.n)).toBe(0);

      // The killed run's claims lapse (time moved past them), and a restarted instance bills the rest.
      await client.query(`update show_seats set claimed_until = now() - interval '1 second' where show_id = any($1::bigint[]) and claimed_until is not null`, [live.showIds]);
      const runner = await showBillingRunner(database.url, { minuteMs: MINUTE_MS });
      try {
        expect((await runner.billDue()).paid).toBe(1000 - before);
      } finally {
        await runner.close();
      }
      const audit = await auditShows(database.url, live, 1);
      expect(audit, JSON.stringify(audit)).toSatisfy(() => showAuditPasses(audit, live, 1));
    } finally {
      await client.end();
    }
  });
});

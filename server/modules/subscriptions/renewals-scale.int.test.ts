/**
 * Renewals with several runners at once and after kill -9, on PostgreSQL (the project with TEST_DB_KIND
 * postgres): each subscription is charged once per period, none is missed, the books balance.
 */
import { spawn } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRenewals, prepareDatabase, renewalRunner, seedDueSubscriptions, type DueSubscriptions } from '../../testing/renewal-load';
import { emptyPostgresDatabase } from '../../testing/tip-load';
import { eventually } from '../../testing/eventually';

const COINS = 1000;
const PRICE = 10;
const DAY = 24 * 3600_000;

describe.runIf(process.env.TEST_DB_KIND === 'postgres')('renewals at scale', () => {
  let database: Awaited<ReturnType<typeof emptyPostgresDatabase>>;
  beforeAll(async () => {
    database = await emptyPostgresDatabase('ll_renewals');
    await prepareDatabase(database.url);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('charges each subscription once per period when two instances renew at the same moment, period after period', async () => {
    const firstEnd = new Date(Date.now() - DAY / 2);
    const due = await seedDueSubscriptions(database.url, { count: 300, coins: COINS, price: PRICE, endDate: firstEnd });
    const [a, b] = await Promise.all([renewalRunner(database.url), renewalRunner(database.url)]);
    try {
      let now = firstEnd;
      for (let period = 1; period <= 3; period++) {
        const [one, two] = await Promise.all([a.renewDue(now, 25), b.renewDue(now, 25)]);
        expect(one.renewed + two.renewed).toBe(300);
        expect(one.failed + two.failed).toBe(0);
        const audit = await auditRenewals(database.url, due, COINS, now);
        expect(audit).toEqual({ doubleCharges: 0, periodMismatches: 0, renewals: 300 * period, stillDue: 0, wrongBalances: 0, ledgerViolations: 0 });
        now = new Date(now.getTime() + 31 * DAY);
      }
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('leaves no double charge and no missed renewal when the renewing process is killed mid-run', async () => {
    const end = new Date(Date.now() - DAY / 2);
    const due: DueSubscriptions = await seedDueSubscriptions(database.url, { count: 1500, coins: COINS, price: PRICE, endDate: end });
    const ids = `{${due.subscriptionIds.join(',')}}`;
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const renewedSoFar = async () =>
      Number((await client.query<{ n: string }>(`select count(*) as n from subscriptions where id = any($1::bigint[]) and period_no > 1`, [ids])).rows[0]!.n);
    try {
      const worker = spawn(process.execPath, ['--import', 'tsx', 'server/testing/renewal-worker.ts', database.url, end.toISOString(), '10'], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      // Killed once it has renewed some, well before all.
      await eventually(renewedSoFar, (n) => n >= 100, 30_000, 50);
      worker.kill('SIGKILL');
      await exited;
      const before = await renewedSoFar();
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(1500);
      // What the killed run left: whole renewals only.
      const cut = await auditRenewals(database.url, due, COINS, end);
      expect(cut).toMatchObject({ doubleCharges: 0, periodMismatches: 0, wrongBalances: 0, ledgerViolations: 0 });
      expect(cut.renewals).toBe(before);

      // Restarted: the rest is renewed, nothing twice.
      const runner = await renewalRunner(database.url);
      try {
        const outcome = await runner.renewDue(end);
        expect(outcome.renewed).toBe(1500 - before);
      } finally {
        await runner.close();
      }
      expect(await auditRenewals(database.url, due, COINS, end)).toEqual({
        doubleCharges: 0, periodMismatches: 0, renewals: 1500, stillDue: 0, wrongBalances: 0, ledgerViolations: 0,
      });
    } finally {
      await client.end();
    }
  }, 120_000);
});

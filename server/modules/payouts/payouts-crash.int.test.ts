/**
 * Payouts after kill -9 (decision 0061): the real server as a child process on a fresh PostgreSQL database,
 * killed with SIGKILL while 20 creators ask for payouts at once, again while the administrator approves
 * them, and again while the bank's answer is imported; after each restart everything unanswered is sent
 * again (the requests with the same Idempotency-Key). Then each creator has exactly one request, each step
 * moved its coins exactly once, the payouts account holds nothing, and money is conserved.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import * as api from '../../../common/api/payouts';
import { saveTaxInfo } from '../../../common/api/statements';
import type { Db } from '../../platform/db/client';
import { HttpSession } from '../../testing/http-session';
import { TEST_BANK_ACCOUNT, TEST_TAX_FORM } from '../../testing/payouts';
import { startServerProcess, type ServerProcess } from '../../testing/server';
import { suiteNeeding } from '../../testing/suite-needing';
import { conservationViolationsAt, emptyPostgresDatabase, ledgerViolations, provisionTippers, violationCount, type Tipper } from '../../testing/tip-load';
import { createLedger } from '../ledger';
import { pastTipTransfer } from '../tips/past-tip';

const CREATORS = 20;
const COINS = 400;

suiteNeeding('postgres')('payouts survive kill -9', () => {
  let server: ServerProcess | undefined;
  let database: Awaited<ReturnType<typeof emptyPostgresDatabase>> | undefined;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-payouts-crash-'));
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  let kills = 0;
  const start = async () => (server = await startServerProcess({ DATABASE_URL: database!.url, PAYOUT_HOLD_SECONDS: '0', PAYOUT_MINIMUM_COINS: '10' }, { dataDir }));
  const as = (who: Tipper) => {
    const session = HttpSession.at(server!.url);
    session.setCookie('ll_session', who.token);
    return session;
  };
  /** Sends each call until it is answered, killing the server once after the first answers came back, and restarting it. */
  async function underKill<T>(calls: Array<() => Promise<{ status: number; body: T }>>): Promise<Array<{ status: number; body: T }>> {
    const answers: Array<{ status: number; body: T } | undefined> = calls.map(() => undefined);
    let answered = 0;
    const victim = server!;
    const round = calls.map((send, i) => send().then((res) => {
      answers[i] = res;
      answered += 1;
      if (answered === 3) victim.child.kill('SIGKILL');
    }, () => undefined));
    await Promise.all(round);
    await victim.exited;
    expect(victim.child.signalCode).toBe('SIGKILL');
    kills += 1;
    await start();
    for (const [i, send] of calls.entries()) if (!answers[i] || answers[i]!.status >= 500) answers[i] = await send();
    return answers as Array<{ status: number; body: T }>;
  }

  it('each payout step moves its coins once across three kills, and the books are conserved', async () => {
    database = await emptyPostgresDatabase('payouts_crash');
    await start();
    const creators = await provisionTippers(database.url, CREATORS, 0, 'creator');
    const [fan] = await provisionTippers(database.url, 1, CREATORS * COINS, 'fan');
    const [boss] = await provisionTippers(database.url, 1, 0, 'boss');
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    try {
      await pool.query(`update users set role = 'admin' where id = $1`, [boss!.userId]);
      const ledger = createLedger({ db: drizzle({ client: pool }) as unknown as Db });
      for (const c of creators) {
        await ledger.transfer(pastTipTransfer({ tipperId: fan!.userId, creatorId: c.userId, streamId: null, amount: COINS, at: new Date(Date.now() - 3_600_000), key: `crash-${c.userId}` }));
      }
      for (const c of creators) {
        await as(c).call(api.savePayoutMethod, TEST_BANK_ACCOUNT);
        await as(c).call(saveTaxInfo, TEST_TAX_FORM);
      }

      // 1. Every creator asks at once; the server dies under them.
      const asked = await underKill(creators.map((c) => () => as(c).send(api.requestPayout, { coins: COINS }, { idempotencyKey: `crash-request-${c.userId}` })));
      expect(asked.map((a) => a.status)).toEqual(creators.map(() => 200));
      const ids = asked.map((a) => (a.body as { request: api.PayoutRequest }).request.id);
      expect(new Set(ids).size).toBe(CREATORS);

      // 2. The administrator approves them all at once; the server dies again.
      const approved = await underKill(ids.map((id) => () => as(boss!).send(api.approvePayout, { id })));
      // An approval whose answer the kill swallowed is refused when sent again: it is approved already.
      expect(approved.every((a) => a.status === 200 || a.status === 409)).toBe(true);
      const batch = await as(boss!).call(api.exportPayouts, {});
      expect(batch.count).toBe(CREATORS);

      // 3. The bank's answer: half paid, half failed, imported line by line while the server dies.
      const answer = (id: number, i: number) => (i % 2 === 0 ? `PO-${id},paid` : `PO-${id},failed,Account closed`);
      await underKill(ids.map((id, i) => () => as(boss!).send(api.importPayouts, { csv: answer(id, i) })));
      const again = await as(boss!).call(api.importPayouts, { csv: ids.map(answer).join('\n') });
      expect(again).toEqual({ response: 'success', paid: 0, failed: 0, returned: 0, unchanged: CREATORS });

      const { rows: states } = await pool.query<{ state: string; n: string }>(`select state, count(*) as n from payout_requests group by state order by state`);
      expect(states.map((s) => [s.state, Number(s.n)])).toEqual([['failed', CREATORS / 2], ['paid', CREATORS / 2]]);
      // One transfer per step of each request: hold for all, then paid or returned.
      const { rows: steps } = await pool.query<{ step: string; n: string; coins: string }>(`
        select details->>'step' as step, count(*) as n, sum(amount) as coins from ledger_transfers where kind = 'payout' group by 1 order by 1`);
      expect(steps.map((s) => [s.step, Number(s.n), Number(s.coins)])).toEqual([
        ['hold', CREATORS, CREATORS * COINS], ['paid', CREATORS / 2, (CREATORS / 2) * COINS], ['returned', CREATORS / 2, (CREATORS / 2) * COINS],
      ]);
      const { rows: held } = await pool.query<{ system: string; balance: string }>(`
        select system, sum(balance) as balance from ledger_accounts where system in ('payouts', 'paid-out') group by system order by system`);
      expect(held.map((h) => [h.system, Number(h.balance)])).toEqual([['paid-out', (CREATORS / 2) * COINS], ['payouts', 0]]);
    } finally {
      await pool.end();
    }
    expect(kills).toBe(3);
    expect(violationCount(await ledgerViolations(database.url))).toBe(0);
    expect(await conservationViolationsAt(database.url)).toEqual([]);
  }, 240_000);
});

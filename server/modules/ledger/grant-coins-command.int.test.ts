/**
 * `npm run admin -- grant-coins` (decision 0036) as an operator runs it: the command on the database of a
 * stopped server grants audited coins within the month's budget, refuses beyond it and names an unknown
 * user; the books stay conserved.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../../testing/databases';
import { openApp } from '../../testing/server';
import { checkConservation, conservationViolations } from './conservation';

let fresh: FreshDatabase;
let alice = 0;

const env = () => ({
  ...process.env, DATA_DIR: fresh.dataDir, LOG_LEVEL: 'silent', GRANT_BUDGET_COINS: '500',
  ...(fresh.target.kind === 'postgres' ? { DATABASE_URL: fresh.target.url } : {}),
});
/** The command's exit code and what it printed. */
async function admin(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { env: env() });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}
const opened = () => openApp(fresh.dataDir, { LOG_LEVEL: 'silent', ...(fresh.target.kind === 'postgres' ? { DATABASE_URL: fresh.target.url } : {}) });

beforeAll(async () => {
  fresh = await freshDatabase(inject('dbTemplate'));
  const app = await opened();
  alice = await app.app.services.accounts.createAccount(app.resources.database.db, {
    username: 'granted_alice', email: 'granted_alice@test.example', password: 'a-good-password', birthdayIso: '1995-05-05', country: 'US', termsAccepted: true, skin: 'limelight',
  });
  await app.close();
}, 60_000);
afterAll(async () => {
  await fresh.dispose();
});

it('grants audited coins within the budget, and refuses an unknown user or a grant over the budget', async () => {
  expect(await admin('grant-coins', 'nobody_here', '10', 'Welcome gift')).toMatchObject({ code: 1, out: expect.stringContaining('No user is named nobody_here.') });
  expect(await admin('grant-coins', 'granted_alice', '300', 'Launch', 'contest', 'prize'))
    .toMatchObject({ code: 0, out: expect.stringMatching(/^Granted 300 coins to granted_alice \(transfer \d+\); 200 coins of this month's budget left\./) });
  expect(await admin('grant-coins', 'granted_alice', '201', 'Too generous'))
    .toMatchObject({ code: 1, out: expect.stringContaining('This grant would exceed the monthly grant budget: 300 of 500 coins granted this month, 200 left.') });
  expect(await admin('grant-coins', 'granted_alice', 'lots', 'Not a number')).toMatchObject({ code: 2 });

  const app = await opened();
  try {
    const db = app.resources.database.db;
    expect((await app.app.services.ledger.balances(alice)).CON).toBe(300);
    const { rows } = await db.execute<{ actor_id: number | null; target_id: string; reason: string }>(
      sql`select actor_id, target_id, after->>'reason' as reason from audit_log where action = 'coins.grant'`);
    expect(rows).toEqual([{ actor_id: null, target_id: String(alice), reason: 'Launch contest prize' }]);
    expect(conservationViolations(await checkConservation(db))).toEqual([]);
  } finally {
    await app.close();
  }
}, 120_000);

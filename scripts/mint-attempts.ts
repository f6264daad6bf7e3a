/**
 * Tries to mint coins from outside (issue: coins cannot be minted; decision 0036):
 *   npm run mint-attempts
 * Starts the real server in production mode (NODE_ENV=production, sandbox payments allowed explicitly)
 * on a fresh PostgreSQL database it creates and drops (TEST_DATABASE_URL's server, or 127.0.0.1), runs
 * each attempt as an outsider would — plain fetch clients over HTTP, the captcha solved, coins bought
 * with the sandbox's test card — then prints the coins each created and the conservation check's
 * output. Exits 1 when any coin was created or the books are not conserved.
 *
 * An attempt is a file `scripts/mint-attempts/<name>.ts` exporting
 *   export async function attempt(ctx: AttemptContext): Promise<{ name: string; coinsIn: number; coinsOut: number }>
 * listed in ATTEMPTS below. `ctx` (scripts/mint-attempts/context.ts) gives the base URL, `signUp` (a new
 * account, optionally through a referral link), `signIn`, `deposit` (a coin package bought with the test
 * card), `grantPermission` (what an operator grants a legitimate user), `coinsOf` (the wallet's coins) and
 * `waitForSettlements` (the server's settlement jobs caught up). coinsIn is what the attempt's people
 * bought, coinsOut what they hold at the end: coins created = coinsOut − coinsIn, which must not be above 0.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { isPermission } from '../common/permissions';
import { createAccountAdmin } from '../server/modules/accounts';
import { checkConservation, conservationViolations, formatConservation } from '../server/modules/ledger';
import type { Db } from '../server/platform/db/client';
import { startServerProcess } from '../server/testing/server';
import { emptyPostgresDatabase } from '../server/testing/tip-load';
import { Client, type Attempt, type AttemptContext, type Person } from './mint-attempts/context';
import { attempt as ads, SERVER_SETTINGS as ADS_SETTINGS } from './mint-attempts/ads';
import { attempt as referrals } from './mint-attempts/referrals';

const ATTEMPTS: Attempt[] = [referrals, ads];

/** Referral periods this short, so the settlement job (every minute, a minute after a period closed) settles during the run. */
const SETTLEMENT_SECONDS = 10;
const SETTLEMENT_DEADLINE_MS = 240_000;
const TEST_CARD = { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: '123', name: 'Mint Attempt' };

function contextFor(baseUrl: string, db: Db): AttemptContext {
  let names = 0;
  const signIn = async (person: Pick<Person, 'username' | 'password'>): Promise<Person> => {
    const client = new Client(baseUrl);
    const body = await client.ok('/api/user/user-login', { username: person.username, password: person.password, altcha: await client.captcha() });
    return { client, userId: Number((body.user as { user_id: number }).user_id), username: person.username, password: person.password };
  };
  return {
    baseUrl,
    async signUp(options = {}) {
      const client = new Client(baseUrl);
      const opened = await client.ok('/ajax/tracking/track-event', { action: 'app_opened', ...(options.referralCode ? { referralCode: options.referralCode } : {}) });
      const tracker = (opened.result as { tracker: string }).tracker;
      const username = `mint${process.pid}x${(names += 1)}`;
      const password = `pw-${randomUUID()}`;
      const registered = await client.ok('/api/user/user-register', {
        username, email: `${username}@attempts.example`, password, birthday: '01-01-1990', country: 'US', terms_accepted: true, altcha: await client.captcha(),
      });
      await client.ok('/ajax/tracking/track-event', { action: 'user_registered', tracker });
      return { client, userId: Number(registered.user_id), username, password };
    },
    signIn,
    async deposit(person, coins) {
      const packages = (await person.client.get('/api/wallet/coin-packages')).body.packages as Array<{ package_id: number; coins: number }>;
      const pkg = packages.find((p) => p.coins === coins);
      if (!pkg) throw new Error(`no package of ${coins} coins`);
      const body = await person.client.ok('/api/wallet/deposit-coins', { package_id: pkg.package_id, payment_method: 'card', card: TEST_CARD });
      return Number(body.coins);
    },
    async grantPermission(person, permission) {
      if (!isPermission(permission)) throw new Error(`no permission ${permission}`);
      await createAccountAdmin({ db }).grant(null, { username: person.username }, permission);
    },
    async coinsOf(person) {
      return Number(((await person.client.get('/api/wallet/balance')).body.balance as { CON: number }).CON);
    },
    async waitForSettlements() {
      const until = Date.now();
      const deadline = Date.now() + SETTLEMENT_DEADLINE_MS;
      for (;;) {
        const { rows } = await db.execute<{ settled: boolean }>(sql`select coalesce(max(period_end) >= ${new Date(until).toISOString()}::timestamptz, false) as settled
          from referral_settlements`);
        if (rows[0]?.settled) return;
        if (Date.now() > deadline) throw new Error('the referral settlement job did not settle the periods of the attempt in time');
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    },
  };
}

async function main() {
  const database = await emptyPostgresDatabase('ll_mint_attempts');
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const db = drizzle({ client: pool }) as unknown as Db;
  const server = await startServerProcess({
    NODE_ENV: 'production', DATABASE_URL: database.url, PAYMENTS: 'sandbox', ALLOW_SANDBOX_PAYMENTS: 'on', MAIL_OUTBOX: 'off', CAPTCHA: 'altcha',
    SEED_DEMO: 'off', REFERRAL_SETTLEMENT_SECONDS: String(SETTLEMENT_SECONDS), ...ADS_SETTINGS,
  });
  let created = 0;
  let violations: string[];
  try {
    const ctx = contextFor(server.url, db);
    for (const attempt of ATTEMPTS) {
      const result = await attempt(ctx);
      const minted = result.coinsOut - result.coinsIn;
      created += Math.max(0, minted);
      console.log(`${result.name}: bought ${result.coinsIn}, hold ${result.coinsOut}: ${minted > 0 ? `${minted} COINS CREATED` : 'no coin created'}`);
    }
    const report = await checkConservation(db);
    violations = conservationViolations(report);
    console.log(`\nCoins created: ${created}\n\nConservation check:\n${formatConservation(report)}`);
  } finally {
    await server.stop();
    await pool.end();
    await database.drop();
  }
  process.exitCode = created > 0 || violations.length > 0 ? 1 : 0;
}

void main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});

/**
 * The conservation check for operators (decision 0036):
 *   DATABASE_URL=postgres://… npm run ledger:check
 * Prints, per currency, what users and the platform hold, what went out, what came in and what was
 * granted, then every violation: coins issued without recorded money in or an audited grant, a system
 * account below zero. Exits 1 on any violation (2 when it cannot run), so a cron job or a deploy can
 * stop on it. Reads only.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { checkConservation, conservationViolations, formatConservation } from '../server/modules/ledger';
import type { Db } from '../server/platform/db/client';

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is required: the PostgreSQL database whose books to check.');
    process.exit(2);
  }
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const report = await checkConservation(drizzle({ client: pool }) as unknown as Db);
    console.log(formatConservation(report));
    process.exitCode = conservationViolations(report).length === 0 ? 0 : 1;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 2;
  } finally {
    await pool.end();
  }
}

void main();

/**
 * Administration from the command line:
 *   npm run admin -- grant <username> <PERMISSION>
 *   npm run admin -- revoke <username> <PERMISSION>
 *   npm run admin -- role <username> <user|admin>
 *   npm run admin -- grant-coins <username> <coins> "<reason>"
 * Uses the same configuration as the server (DATA_DIR or DATABASE_URL). With the embedded database,
 * stop the server first: only one process may open a data directory.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { isPermission, PERMISSIONS, ROLES, type Role } from '../common/permissions';
import { openResources } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { people } from '../server/modules/accounts';
import { createAccountAdmin } from '../server/modules/accounts/admin';
import { createGrants, GrantRefused } from '../server/modules/ledger';
import { createLedger } from '../server/modules/ledger/service';
import type { Db } from '../server/platform/db/client';
import { DataDirLockedError } from '../server/platform/db/data-dir-lock';
import { forgetOverBus } from '../server/platform/http/session-cache';

const USAGE = `Usage:
  npm run admin -- grant <username> <PERMISSION>
  npm run admin -- revoke <username> <PERMISSION>
  npm run admin -- role <username> <${ROLES.join('|')}>
  npm run admin -- grant-coins <username> <coins> "<reason>"   (audited; within GRANT_BUDGET_COINS a month)

Permissions: ${PERMISSIONS.map((p) => `"${p}"`).join(', ')}`;

const COMMANDS = ['grant', 'revoke', 'role', 'grant-coins'];

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/** Gives the user coins from the mint: an audited grant within the month's budget. */
async function grantCoins(db: Db, monthlyBudget: number, username: string, coinsText: string, reason: string): Promise<string> {
  const [user] = await db.select({ id: people.id }).from(people).where(eq(sql`lower(${people.username})`, username.toLowerCase()));
  if (!user) throw new GrantRefused(`No user is named ${username}.`);
  const grants = createGrants({ db, ledger: createLedger({ db }), monthlyBudget });
  const { transferId, budgetLeft } = await grants.grant({ userId: user.id, coins: Number(coinsText), reason, actorId: null, key: randomUUID() });
  return `Granted ${coinsText} coins to ${username} (transfer ${transferId}); ${budgetLeft} coins of this month's budget left.`;
}

async function main() {
  const [command, username, ...rest] = process.argv.slice(2);
  if (!command || !COMMANDS.includes(command)) fail(command ? `Unknown command: ${command}` : 'Missing arguments.');
  const [coinsText, ...reasonWords] = rest;
  const value = rest.join(' ');
  if (!username || !value) fail('Missing arguments.');
  if ((command === 'grant' || command === 'revoke') && !isPermission(value)) fail(`Unknown permission: ${value}`);
  if (command === 'role' && !(ROLES as readonly string[]).includes(value)) fail(`Unknown role: ${value}`);
  if (command === 'grant-coins' && (!/^[1-9][0-9]{0,9}$/.test(coinsText ?? '') || reasonWords.join(' ').trim() === '')) fail('grant-coins takes a whole number of coins and a reason.');

  const config = loadConfig();
  const resources = await openResources(config).catch((error) => {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  });
  try {
    const db = resources.database.db;
    if (command === 'grant-coins') {
      console.log(await grantCoins(db, config.grants.monthlyBudgetCoins, username, coinsText!, reasonWords.join(' ')));
      return;
    }
    // A server sharing this Redis forgets the user's cached sessions at once; without Redis, within
    // SESSION_CACHE_SECONDS (with the embedded database the server is stopped anyway).
    const accounts = createAccountAdmin({ db, forgetUser: (userId) => forgetOverBus(resources.bus, { userId }) });
    // The command line acts as nobody in particular: the audit log records it with no actor.
    if (command === 'grant' && isPermission(value)) await accounts.grant(null, { username }, value);
    if (command === 'revoke' && isPermission(value)) await accounts.revoke(null, { username }, value);
    if (command === 'role') await accounts.setRole(null, { username }, value as Role);
    console.log(`Done: ${command} ${username} ${value}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await resources.close();
  }
}

void main();

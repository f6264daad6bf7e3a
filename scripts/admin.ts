/**
 * Administration from the command line:
 *   npm run admin -- grant <username> <PERMISSION>
 *   npm run admin -- revoke <username> <PERMISSION>
 *   npm run admin -- role <username> <user|admin>
 *   npm run admin -- grant-coins <username> <coins> "<reason>"
 *   npm run admin -- reset-password <username>   (a new random password, printed; or the first line of stdin)
 * Uses the same configuration as the server (DATA_DIR or DATABASE_URL). With the embedded database,
 * stop the server first: only one process may open a data directory.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { isPermission, PERMISSIONS, ROLES, type Role } from '../common/permissions';
import { openResources } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { people, createAccountAdmin } from '../server/modules/accounts';
import { createGrants, GrantRefused, createLedger } from '../server/modules/ledger';
import type { Db } from '../server/platform/db/client';
import { DataDirLockedError } from '../server/platform/db/data-dir-lock';
import { forgetOverBus } from '../server/platform/http/session-cache';

const USAGE = `Usage:
  npm run admin -- grant <username> <PERMISSION>
  npm run admin -- revoke <username> <PERMISSION>
  npm run admin -- role <username> <${ROLES.join('|')}>
  npm run admin -- grant-coins <username> <coins> "<reason>"   (audited; within GRANT_BUDGET_COINS a month)
  npm run admin -- reset-password <username>   (audited; ends the account's sessions; prints a new random
      password, or takes the first line of stdin when it is piped: echo "$NEW" | npm run admin -- reset-password admin)

Permissions: ${PERMISSIONS.map((p) => `"${p}"`).join(', ')}`;

const COMMANDS = ['grant', 'revoke', 'role', 'grant-coins', 'reset-password'];

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

/** The first line piped in, or null when stdin is a terminal (or nothing came). */
async function pipedLine(): Promise<string | null> {
  if (process.stdin.isTTY) return null;
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  const line = text.split(/\r?\n/)[0] ?? '';
  return line === '' ? null : line;
}

/** A new password for the account: the one piped in (never printed), else a random one printed once. */
async function resetPassword(db: Db, bus: Parameters<typeof forgetOverBus>[0], username: string): Promise<string> {
  const piped = await pipedLine();
  const password = piped ?? randomBytes(15).toString('base64url');
  const accounts = createAccountAdmin({ db, forgetUser: (userId) => forgetOverBus(bus, { userId }) });
  await accounts.resetPassword(null, { username }, password);
  return piped === null
    ? `New password for ${username} (shown only now): ${password}\nEvery session of ${username} has ended.`
    : `The password of ${username} is changed. Every session of ${username} has ended.`;
}

async function main() {
  const [command, username, ...rest] = process.argv.slice(2);
  if (!command || !COMMANDS.includes(command)) fail(command ? `Unknown command: ${command}` : 'Missing arguments.');
  const [coinsText, ...reasonWords] = rest;
  const value = rest.join(' ');
  if (!username || (!value && command !== 'reset-password')) fail('Missing arguments.');
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
    if (command === 'reset-password') {
      console.log(await resetPassword(db, resources.bus, username));
      return;
    }
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

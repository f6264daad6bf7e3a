/**
 * Administration from the command line:
 *   npm run admin -- grant <username> <PERMISSION>
 *   npm run admin -- revoke <username> <PERMISSION>
 *   npm run admin -- role <username> <user|admin>
 * Uses the same configuration as the server (DATA_DIR or DATABASE_URL). With the embedded database,
 * stop the server first: only one process may open a data directory.
 */
import { isPermission, PERMISSIONS, ROLES, type Role } from '../common/permissions';
import { openResources } from '../server/bootstrap';
import { loadConfig } from '../server/config';
import { createAccountAdmin } from '../server/modules/accounts/admin';
import { DataDirLockedError } from '../server/platform/db/data-dir-lock';
import { forgetOverBus } from '../server/platform/http/session-cache';

const USAGE = `Usage:
  npm run admin -- grant <username> <PERMISSION>
  npm run admin -- revoke <username> <PERMISSION>
  npm run admin -- role <username> <${ROLES.join('|')}>

Permissions: ${PERMISSIONS.map((p) => `"${p}"`).join(', ')}`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main() {
  const [command, username, ...rest] = process.argv.slice(2);
  const value = rest.join(' ');
  if (!command || !username || !value) fail('Missing arguments.');
  if ((command === 'grant' || command === 'revoke') && !isPermission(value)) fail(`Unknown permission: ${value}`);
  if (command === 'role' && !(ROLES as readonly string[]).includes(value)) fail(`Unknown role: ${value}`);
  if (!['grant', 'revoke', 'role'].includes(command)) fail(`Unknown command: ${command}`);

  const resources = await openResources(loadConfig()).catch((error) => {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  });
  try {
    // A server sharing this Redis forgets the user's cached sessions at once; without Redis, within
    // SESSION_CACHE_SECONDS (with the embedded database the server is stopped anyway).
    const accounts = createAccountAdmin({ db: resources.database.db, forgetUser: (userId) => forgetOverBus(resources.bus, { userId }) });
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

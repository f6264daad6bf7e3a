/**
 * Restores a backup into a fresh deployment (an empty PostgreSQL database or a new DATA_DIR, and an empty
 * store), then checks the books:
 *   DATABASE_URL=postgres://…/new npm run restore -- /var/backups/limelight/limelight-backup-…
 * Exits 0 when restored and the conservation check is clean, 1 otherwise.
 */
import { loadConfig } from '../server/config';
import { checkConservation, conservationViolations, formatConservation } from '../server/modules/ledger';
import { restoreBackup } from '../server/platform/backup/backup';
import { openDatabase } from '../server/platform/db/client';
import { backupSourcesOf } from './backup-sources';

async function main() {
  const directory = process.argv[2];
  if (!directory) {
    console.error('Usage: npm run restore -- <backup directory>   (into an empty database and store)');
    process.exit(2);
  }
  const config = loadConfig();
  const manifest = await restoreBackup(directory, backupSourcesOf(config));
  console.log(`Restored the database and ${manifest.objects.count} objects taken ${manifest.createdAt}`);
  const database = await openDatabase(config.database);
  try {
    const report = await checkConservation(database.db);
    console.log(formatConservation(report));
    if (conservationViolations(report).length > 0) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

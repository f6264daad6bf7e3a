/**
 * Backs up the database and the stored objects into a new directory under the one given:
 *   npm run backup -- /var/backups/limelight
 * with the platform's own settings (DATABASE_URL or DATA_DIR, and the storage settings). PostgreSQL is
 * copied while the platform runs; the embedded database only while it is stopped. Prints the backup's
 * directory; exits 1 when the backup could not be made.
 */
import { loadConfig } from '../server/config';
import { createBackup } from '../server/platform/backup/backup';
import { backupSourcesOf } from './backup-sources';

async function main() {
  const parent = process.argv[2];
  if (!parent) {
    console.error('Usage: npm run backup -- <directory>   (a new limelight-backup-<time> directory is made in it)');
    process.exit(2);
  }
  const { directory, manifest } = await createBackup(backupSourcesOf(loadConfig()), parent);
  console.log(`Backed up the ${manifest.database === 'postgres' ? 'PostgreSQL' : 'embedded'} database and ${manifest.objects.count} objects (${manifest.objects.bytes} bytes) to ${directory}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

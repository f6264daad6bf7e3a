/** The database and the store a backup is taken from or restored into, from the platform's settings. */
import { openFileStore } from '../server/bootstrap';
import type { Config } from '../server/config';
import type { BackupSources } from '../server/platform/backup/backup';

export function backupSourcesOf(config: Config): BackupSources {
  return { database: config.database, dataDir: config.dataDir, files: openFileStore(config.storage) };
}

/** The database and the store a backup is taken from or restored into, from the platform's settings. */
import path from 'node:path';
import type { Config } from '../server/config';
import type { BackupSources } from '../server/platform/backup/backup';
import { localKeys } from '../server/platform/backup/object-copy';
import { createLocalFileStore } from '../server/platform/storage/storage';

export function backupSourcesOf(config: Config): BackupSources {
  const root = path.join(config.dataDir, 'files');
  return { database: config.database, dataDir: config.dataDir, files: createLocalFileStore(root), keys: () => localKeys(root) };
}

/** Opens everything the app needs (data dir lock, database, migrations, reference data, bus, files). */
import type { AppResources } from './app';
import type { Config } from './config';
import { createMemoryBus } from './platform/bus/memory-bus';
import { createRedisBus, redisPrefix } from './platform/bus/redis-bus';
import type { Bus } from './platform/bus/bus';
import { openDatabase, type Database } from './platform/db/client';
import { lockDataDir } from './platform/db/data-dir-lock';
import { applyMigrations } from './platform/db/migrate';
import { createS3FileStore } from './platform/storage/s3-store';
import { createLocalFileStore, type FileStore } from './platform/storage/storage';
import { ensureInterests } from './modules/accounts';
import { ensureBaseChannels } from './modules/channels';
import { ensurePlanTemplates } from './modules/subscriptions';
import { ensureSystemReferenceData } from './modules/system';
import { ensureWalletPackages } from './modules/wallet';

export interface OpenedResources extends AppResources {
  close(): Promise<void>;
}

/** Interests, countries, base channels, coin and impression packages, plan templates: present in every installation, inserted when missing. */
export async function ensureReferenceData(database: Database): Promise<void> {
  const db = database.db;
  await ensureInterests(db);
  await ensureSystemReferenceData(db);
  await ensureBaseChannels(db);
  await ensureWalletPackages(db);
  await ensurePlanTemplates(db);
}

/** The configured store (decision 0065): the local directory, or the S3 bucket. */
export function openFileStore(storage: Config['storage']): FileStore {
  return storage.kind === 's3'
    ? createS3FileStore(storage.s3, { workDir: storage.workDir })
    : createLocalFileStore(storage.root, { workDir: storage.workDir });
}

export async function openResources(config: Config): Promise<OpenedResources> {
  // Only the embedded database needs the lock: PostgreSQL guards itself, and instances share it.
  const release = config.database.kind === 'pglite' ? lockDataDir(config.dataDir) : () => {};
  let database: Database | undefined;
  let bus: Bus;
  try {
    database = await openDatabase(config.database);
    await applyMigrations(database.pool);
    await ensureReferenceData(database);
    bus = config.redisUrl
      ? await createRedisBus(config.redisUrl, { prefix: await redisPrefix(database.db, config.redisPrefix) })
      : createMemoryBus();
  } catch (error) {
    await database?.close().catch(() => {});
    release();
    throw error;
  }
  const opened = database;
  return {
    config,
    database: opened,
    bus,
    files: openFileStore(config.storage),
    async close() {
      await bus.close();
      await opened.close();
      release();
    },
  };
}

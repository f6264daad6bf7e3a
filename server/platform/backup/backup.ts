/**
 * A backup is a directory: `manifest.json`, the database (`database.pgdump` from PostgreSQL or
 * `database.tar.gz` from the embedded database) and the stored objects (`objects/`, `objects.tsv`).
 * The database is taken first and the objects after it, so every object a backed-up row names is in the
 * backup (an object is written before the row that names it commits).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseTarget } from '../db/client';
import { DataDirLockedError, lockDataDir } from '../db/data-dir-lock';
import type { FileStore } from '../storage/storage';
import { BackupError, dumpDatabase, restoreDatabase } from './database-copy';
import { copyObjectsIn, copyObjectsOut, type ObjectSummary } from './object-copy';

const FORMAT = 1;

export interface BackupManifest {
  format: number;
  createdAt: string;
  database: DatabaseTarget['kind'];
  objects: ObjectSummary;
}

export interface BackupSources {
  database: DatabaseTarget;
  /** The data dir whose lock an embedded database needs (no server may hold it meanwhile). */
  dataDir: string;
  files: FileStore;
}

const databaseFile = (kind: DatabaseTarget['kind']) => (kind === 'postgres' ? 'database.pgdump' : 'database.tar.gz');

/** Holds the data dir's lock around an embedded database's copy; PostgreSQL needs none. */
async function withDatabaseHeld<T>(sources: Pick<BackupSources, 'database' | 'dataDir'>, work: () => Promise<T>): Promise<T> {
  if (sources.database.kind === 'postgres') return work();
  let release: () => void;
  try {
    release = lockDataDir(sources.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new BackupError(`The embedded database in ${sources.dataDir} is in use by a running server: stop the server first`);
  }
  try {
    return await work();
  } finally {
    release();
  }
}

export async function createBackup(sources: BackupSources, parent: string, now = new Date()): Promise<{ directory: string; manifest: BackupManifest }> {
  const directory = path.resolve(parent, `limelight-backup-${now.toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(directory, { recursive: true });
  if ((await readdir(directory)).length > 0) throw new BackupError(`${directory} is not empty`);
  try {
    return await withDatabaseHeld(sources, async () => {
      await dumpDatabase(sources.database, path.join(directory, databaseFile(sources.database.kind)));
      const objects = await copyObjectsOut(sources.files, directory);
      const manifest: BackupManifest = { format: FORMAT, createdAt: now.toISOString(), database: sources.database.kind, objects };
      await writeFile(path.join(directory, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
      return { directory, manifest };
    });
  } catch (error) {
    // Half a backup is no backup: nothing is left that a restore could mistake for one.
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
}

export async function readManifest(directory: string): Promise<BackupManifest> {
  const file = path.join(directory, 'manifest.json');
  if (!existsSync(file)) throw new BackupError(`${directory} is not a backup (no manifest.json)`);
  const manifest = JSON.parse(await readFile(file, 'utf8')) as BackupManifest;
  if (manifest.format !== FORMAT) throw new BackupError(`${directory} is a backup of format ${manifest.format}; this version reads format ${FORMAT}`);
  return manifest;
}

/**
 * Into a fresh deployment only: an empty PostgreSQL database or a new DATA_DIR, and a store without the
 * backup's keys. The embedded and PostgreSQL forms do not cross (each is its own engine's format).
 */
export async function restoreBackup(directory: string, targets: BackupSources): Promise<BackupManifest> {
  const manifest = await readManifest(directory);
  if (manifest.database !== targets.database.kind) {
    throw new BackupError(`This backup holds ${manifest.database === 'postgres' ? 'a PostgreSQL' : 'an embedded'} database; restore it into the same kind`);
  }
  const [present] = await targets.files.list('');
  if (present !== undefined) throw new BackupError(`The store already holds objects (${present}, …): restore into an empty store`);
  await withDatabaseHeld(targets, () => restoreDatabase(targets.database, path.join(directory, databaseFile(manifest.database))));
  const objects = await copyObjectsIn(directory, targets.files);
  if (objects.count !== manifest.objects.count) throw new BackupError(`The backup lists ${manifest.objects.count} objects but holds ${objects.count}`);
  return manifest;
}

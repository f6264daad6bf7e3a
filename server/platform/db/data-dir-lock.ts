/** An exclusive lock on the data dir: PGlite has none, and two processes on one dir lose writes. */
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Takes the lock or throws DataDirLockedError naming the process that holds it. Returns the release. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'limelight.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(lockPath)) {
      return () => rmSync(lockPath, { force: true });
    }
    const holder = Number(readFileSync(lockPath, 'utf8').trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isAlive(holder)) {
      throw new DataDirLockedError(
        `The data directory ${dataDir} is in use by another Limelight process (pid ${holder}). ` +
          'Stop it first, or start this one with another DATA_DIR.',
      );
    }
    rmSync(lockPath, { force: true }); // left behind by a process that no longer runs
  }
  throw new DataDirLockedError(`Could not lock the data directory ${dataDir}.`);
}

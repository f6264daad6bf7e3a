import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from './data-dir-lock';

describe('data dir lock', () => {
  it('refuses a directory held by another running process, with a clear message', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'll-lock-'));
    const other = spawn('sleep', ['30']);
    try {
      writeFileSync(path.join(dir, 'limelight.lock'), String(other.pid));
      expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
      expect(() => lockDataDir(dir)).toThrow(/in use by another Limelight process \(pid \d+\)/);
    } finally {
      other.kill();
    }
  });

  it('takes over a lock left behind by a process that has ended, and releases it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'll-lock-'));
    const ended = spawn('true');
    await new Promise((resolve) => ended.on('exit', resolve));
    const lockFile = path.join(dir, 'limelight.lock');
    writeFileSync(lockFile, String(ended.pid));
    const release = lockDataDir(dir);
    // The stale lock is replaced by one naming this process, removed again on release.
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(lockFile)).toBe(false);
    const again = lockDataDir(dir);
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    again();
    expect(existsSync(lockFile)).toBe(false);
  });
});

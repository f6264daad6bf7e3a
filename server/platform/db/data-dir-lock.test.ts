import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
    writeFileSync(path.join(dir, 'limelight.lock'), String(ended.pid));
    const release = lockDataDir(dir);
    release();
    lockDataDir(dir)();
  });
});

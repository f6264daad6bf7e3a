import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureTool } from './system-tools';

const dir = mkdtempSync(path.join(os.tmpdir(), 'll-tools-'));
const present = path.join(dir, 'present');
writeFileSync(present, '');

describe('the tools the test command needs', () => {
  it('takes the path the environment gives, and refuses one that does not exist', () => {
    expect(ensureTool({ path: '/nowhere/tool', debianPackage: 'tool' }, present)).toBe(present);
    expect(ensureTool({ path: present, debianPackage: 'tool' }, path.join(dir, 'absent'))).toBeNull();
  });

  it('takes the usual path when the program is there', () => {
    expect(ensureTool({ path: present, debianPackage: 'tool' })).toBe(present);
  });
});

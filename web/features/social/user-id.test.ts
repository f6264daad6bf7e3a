import { describe, expect, it } from 'vitest';
import { parseUserId } from './user-id';

describe('parseUserId', () => {
  it('reads positive whole numbers', () => {
    expect(parseUserId('1000002')).toBe(1000002);
  });

  it('refuses anything else', () => {
    for (const value of [null, undefined, '', '0', '-4', '1.5', 'abc', '1e9', '9'.repeat(16)]) expect(parseUserId(value)).toBeNull();
  });
});

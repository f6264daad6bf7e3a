import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTaxIdCipher, SealBroken, taxKeyFrom } from './tax-crypto';
import { csvCell } from './statement-csv';

const cipher = createTaxIdCipher(randomBytes(32));

/** The sealed text with one base64url character of part `index` changed. */
function tampered(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const part = parts[index]!;
  parts[index] = `${part[0] === 'A' ? 'B' : 'A'}${part.slice(1)}`;
  return parts.join('.');
}

describe('tax id sealing', () => {
  it('opens what it sealed, and the sealed text holds neither the id nor the same text twice', () => {
    const a = cipher.seal(7, '123456789');
    expect(cipher.open(7, a)).toBe('123456789');
    expect(a).not.toContain('123456789');
    expect(cipher.seal(7, '123456789')).not.toBe(a);
  });

  it('refuses a changed nonce, text or tag, a shortened tag, another user\'s id, another key', () => {
    const sealed = cipher.seal(7, '123456789');
    for (const index of [1, 2, 3]) expect(() => cipher.open(7, tampered(sealed, index))).toThrow(SealBroken);
    const [v, iv, text, tag] = sealed.split('.');
    expect(() => cipher.open(7, [v, iv, text, tag!.slice(0, 8)].join('.'))).toThrow(SealBroken);
    expect(() => cipher.open(8, sealed)).toThrow(SealBroken);
    expect(() => createTaxIdCipher(randomBytes(32)).open(7, sealed)).toThrow(SealBroken);
    expect(() => cipher.open(7, 'v2.x.y.z')).toThrow(SealBroken);
  });

  it('takes a 32-byte key written in base64 or hex, and nothing shorter', () => {
    const key = randomBytes(32);
    expect(taxKeyFrom(key.toString('base64'))).toEqual(key);
    expect(taxKeyFrom(key.toString('hex'))).toEqual(key);
    expect(taxKeyFrom(randomBytes(16).toString('base64'))).toBeNull();
    expect(taxKeyFrom('not a key')).toBeNull();
  });
});

describe('CSV cells', () => {
  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell(-40)).toBe('-40');
    expect(csvCell(null)).toBe('');
  });
});

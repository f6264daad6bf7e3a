import { describe, expect, it } from 'vitest';
import { hasAdultAgreement, saveAdultAgreement } from './adult-agreement';

function memoryStorage() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) };
}

describe('adult agreement', () => {
  it('holds for 43200 minutes after confirming', () => {
    const storage = memoryStorage();
    const now = Date.UTC(2026, 0, 1);
    expect(hasAdultAgreement(now, storage)).toBe(false);
    saveAdultAgreement(now, storage);
    expect(hasAdultAgreement(now + 43_199 * 60_000, storage)).toBe(true);
    expect(hasAdultAgreement(now + 43_200 * 60_000, storage)).toBe(false);
  });
});

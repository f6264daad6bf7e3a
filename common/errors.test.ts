import { describe, expect, it } from 'vitest';
import { ERRORS, errorMessage, isErrorCode, type ErrorCode } from './errors';
import { MSG, fill, type MessageKey } from './messages';

/** The product's own sources (tests excluded): where a catalogue text has to be used. */
const sources = Object.entries(
  import.meta.glob<string>(['/common/**/*.ts', '/server/**/*.ts', '/web/**/*.{ts,tsx}', '!**/*.test.ts', '!/common/messages.ts'], {
    query: '?raw',
    import: 'default',
    eager: true,
  }),
).map(([path, text]) => ({ path, text }));
const codes = Object.keys(ERRORS) as ErrorCode[];
const keys = Object.keys(MSG) as MessageKey[];

describe('error codes', () => {
  it('map to a text of the catalogue and an error status', () => {
    for (const code of codes) {
      expect(MSG[ERRORS[code].message], code).toEqual(expect.any(String));
      expect(errorMessage(code), code).not.toBe('');
      expect(ERRORS[code].status, code).toBeGreaterThanOrEqual(400);
    }
  });

  it("keep the spec's special response codes", () => {
    for (const code of ['block', 'USER_NOT_EXIST_YOU_CAN_CREATE', 'ARGS_INVALID_EMAIL_EXIST_DB', 'validation', 'insufficient_funds']) {
      expect(isErrorCode(code), code).toBe(true);
    }
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('success')).toBe(false);
  });
});

describe('the message catalogue', () => {
  it('holds every text once', () => {
    const byText = new Map<string, MessageKey[]>();
    for (const key of keys) byText.set(MSG[key], [...(byText.get(MSG[key]) ?? []), key]);
    expect([...byText.values()].filter((same) => same.length > 1)).toEqual([]);
  });

  it('is read from the sources', () => {
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.some((file) => file.path === '/web/api/client.ts')).toBe(true);
  });

  it('has no text that nothing shows: each is used by the product or is the default of an error code', () => {
    const defaults = new Set<string>(codes.map((code) => ERRORS[code].message));
    const used = (key: MessageKey) => defaults.has(key) || sources.some((file) => new RegExp(`\\bMSG\\.${key}\\b`).test(file.text));
    expect(keys.filter((key) => !used(key))).toEqual([]);
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(fill(MSG.tipToWatch, { owed: 30 })).toBe('Tip 30 coins to watch this stream.');
    expect(fill(MSG.searchMin, {})).toBe(MSG.searchMin);
  });
});

describe('the web', () => {
  it('decides by code, never by reading a message', () => {
    // A comparison, search or pattern on a text; `typeof x.message` and null checks only test presence.
    const scraping = /(?<!typeof [\w.?]+)\.message\s*[!=]==?(?!=)(?!\s*(null|undefined)\b)|\.message(\?\.|\.)(includes|startsWith|endsWith|match|search|indexOf|toLowerCase)\(|\.exec\([^)]*\.message\b|===\s*MSG\.\w+|MSG\.\w+\s*===/;
    const offenders = sources.filter((file) => file.path.startsWith('/web/') && scraping.test(file.text)).map((file) => file.path);
    expect(offenders).toEqual([]);
  });
});

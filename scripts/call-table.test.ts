import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from '../common/api';
import { CALL_TABLE_FILE, renderCallTable } from './call-table';

/**
 * The kinds of schema whose parse output can differ from the JSON the server sent. A `default` is not
 * one: the server's encoding requires the field, so parsing never fills it in.
 */
const RESHAPING = new Set(['transform', 'pipe', 'prefault', 'catch']);

/** The reshaping kinds inside `schema`, with where they are. */
function reshaping(schema: z.ZodType, at: string, seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const found = RESHAPING.has(def.type) ? [`${at}: ${def.type}`] : [];
  const isSchema = (value: unknown): value is z.ZodType => typeof value === 'object' && value !== null && '_zod' in value;
  const inner = (value: unknown, where: string): string[] => {
    if (isSchema(value)) return reshaping(value, where, seen);
    if (Array.isArray(value)) return value.flatMap((item, i) => inner(item, `${where}[${i}]`));
    return [];
  };
  for (const [key, value] of Object.entries(def)) {
    if (key === 'shape' && value && typeof value === 'object') {
      for (const [field, fieldSchema] of Object.entries(value)) found.push(...inner(fieldSchema, `${at}.${field}`));
    } else if (key === 'getter' && typeof value === 'function') {
      found.push(...inner((value as () => unknown)(), at));
    } else {
      found.push(...inner(value, at));
    }
  }
  return found;
}

const calls = Object.entries(contract).flatMap(([domain, module]) =>
  typeof module === 'object' && module !== null
    ? Object.entries(module as Record<string, unknown>)
        .filter((entry): entry is [string, { method: string; path: string; output: z.ZodType }] => {
          const value = entry[1] as { method?: unknown; path?: unknown; output?: unknown } | null;
          return typeof value === 'object' && value !== null && typeof value.method === 'string' && typeof value.path === 'string' && value.output !== undefined;
        })
        .map(([name, def]) => ({ name: `${domain}.${name}`, def }))
    : [],
);

describe('the call table (common/api/calls.ts)', () => {
  it('is the contract as it is now: `npm run calls -- --write` after changing a call', () => {
    expect(readFileSync(CALL_TABLE_FILE, 'utf8')).toBe(renderCallTable());
  });

  it('holds every call of the contract, with its method, path and flags', async () => {
    const table = (await import('../common/api/calls')) as unknown as Record<string, Record<string, Record<string, unknown>>>;
    expect(calls.length).toBeGreaterThan(100);
    for (const { name, def } of calls) {
      const [domain, call] = name.split('.') as [string, string];
      const { method, path, changesState, idempotencyKey } = def as typeof def & { changesState?: boolean; idempotencyKey?: string };
      expect(table[domain]?.[call], name).toEqual({ method, path, ...(changesState ? { changesState } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) });
    }
  });

  // The web trusts a production answer as the server sent it (decision 0032): the server shapes it with
  // the output schema, and parsing it again must give the same value, so no answer may transform, default or catch.
  it('has answers that parse to themselves', () => {
    expect(calls.flatMap(({ name, def }) => reshaping(def.output, name))).toEqual([]);
  });
});

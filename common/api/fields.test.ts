import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { numeric } from './fields';

describe('numeric', () => {
  const schema = z.strictObject({ n: numeric(z.number({ error: 'a number' }).int()), page: numeric(z.number().int().default(0)) });

  it('reads numbers and their plain decimal writing', () => {
    expect(schema.parse({ n: 16 })).toEqual({ n: 16, page: 0 });
    expect(schema.parse({ n: ' 16 ', page: '2' })).toEqual({ n: 16, page: 2 });
    expect(schema.parse({ n: '-3' }).n).toBe(-3);
  });

  it.each(['0x10', '1e3', '', '  ', 'Infinity', '0b1', '+5', true, null, [], {}])('refuses %j with the schema’s own message', (n) => {
    const result = schema.safeParse({ n });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('a number');
  });
});

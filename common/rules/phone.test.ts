import { describe, expect, it } from 'vitest';
import { normalisePhone } from './phone';

describe('normalisePhone', () => {
  it.each([
    ['+1 555 123 4567', '+15551234567'],
    ['+44 (20) 7946-0958', '+442079460958'],
    ['0049 30 1234567', '+49301234567'],
    ['+33.6.12.34.56.78', '+33612345678'],
  ])('reads %s as %s', (text, stored) => expect(normalisePhone(text)).toBe(stored));

  it.each(['555 123 4567', '+0 555 123 4567', '+1 555', '+1234567890123456', 'call me', '+1 555 CALL NOW', ''])(
    'refuses %s',
    (text) => expect(normalisePhone(text)).toBeNull(),
  );
});

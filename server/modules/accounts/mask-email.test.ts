import { describe, expect, it } from 'vitest';
import { maskEmail } from './mask-email';

describe('maskEmail', () => {
  it.each([
    ['john@example.com', 'j***@e***.com'],
    ['a@b.co', 'a***@b***.co'],
    ['jane.doe@mail.example.co.uk', 'j***@m***.uk'],
    ['root@localhost', 'r***@l***'],
    ['not-an-address', '***'],
  ])('%s → %s', (email, masked) => {
    expect(maskEmail(email)).toBe(masked);
  });
});

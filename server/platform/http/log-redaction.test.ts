import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction';

describe('redactUrl', () => {
  it('hides credentials in the query and keeps the rest', () => {
    expect(redactUrl('/api/auth/google/callback?code=abc&state=def&iss=https%3A%2F%2Fissuer')).toBe(
      '/api/auth/google/callback?code=redacted&state=redacted&iss=https%3A%2F%2Fissuer',
    );
    expect(redactUrl('/user/login?social=ticket&type=google')).toBe('/user/login?social=redacted&type=google');
  });

  it('leaves URLs without a query alone', () => {
    expect(redactUrl('/api/user/session-detail')).toBe('/api/user/session-detail');
  });
});

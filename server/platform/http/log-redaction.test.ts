import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction';

describe('redactUrl', () => {
  it('hides credentials in the query and keeps the rest', () => {
    expect(redactUrl('/api/auth/google/callback?code=abc&state=def&iss=https%3A%2F%2Fissuer')).toBe(
      '/api/auth/google/callback?code=redacted&state=redacted&iss=https%3A%2F%2Fissuer',
    );
    expect(redactUrl('/user/login?social=ticket&type=google')).toBe('/user/login?social=redacted&type=google');
    // An ad's signed ids count for the viewer they were made for: kept out of logs all the same.
    expect(redactUrl('/api/user/exo-click-tracking?tracking_id=7.abc')).toBe('/api/user/exo-click-tracking?tracking_id=redacted');
    expect(redactUrl('/ads/track?impression_id=7.abc&event=complete')).toBe('/ads/track?impression_id=redacted&event=complete');
  });

  it('leaves URLs without a query alone', () => {
    expect(redactUrl('/api/user/session-detail')).toBe('/api/user/session-detail');
  });
});

import { describe, expect, it } from 'vitest';
import { sessionClock } from './session-timer';

describe('sessionClock', () => {
  it('counts minutes and seconds, then hours', () => {
    const start = new Date('2026-01-01T10:00:00Z');
    expect(sessionClock(start, new Date('2026-01-01T10:00:07Z'))).toBe('0:07');
    expect(sessionClock(start, new Date('2026-01-01T10:12:30Z'))).toBe('12:30');
    expect(sessionClock(start, new Date('2026-01-01T11:02:03Z'))).toBe('1:02:03');
    expect(sessionClock(start, new Date('2026-01-01T09:00:00Z'))).toBe('0:00');
  });
});

import { describe, expect, it } from 'vitest';
import { meetingEnd, meetingTip } from './meeting';

describe('the meeting tip', () => {
  it('defaults to 250', () => {
    expect(meetingTip(undefined)).toBe(250);
    expect(meetingTip(null)).toBe(250);
    expect(meetingTip(Number.NaN)).toBe(250);
  });

  it('rounds up to a multiple of 10', () => {
    expect(meetingTip(251)).toBe(260);
    expect(meetingTip(300)).toBe(300);
    expect(meetingTip(1234)).toBe(1240);
    expect(meetingTip(4991)).toBe(5000);
  });

  it('is clamped to 250..5000', () => {
    expect(meetingTip(0)).toBe(250);
    expect(meetingTip(1)).toBe(250);
    expect(meetingTip(249)).toBe(250);
    expect(meetingTip(5001)).toBe(5000);
    expect(meetingTip(1_000_000)).toBe(5000);
  });
});

describe('the meeting end', () => {
  it('is 30 minutes after the start', () => {
    expect(meetingEnd(new Date('2030-01-01T10:00:00Z')).toISOString()).toBe('2030-01-01T10:30:00.000Z');
  });
});

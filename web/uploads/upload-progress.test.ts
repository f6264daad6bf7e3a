import { describe, expect, it } from 'vitest';
import { formatTimeLeft, nextThroughput, overallProgress, percentOf, rebaseThroughput, secondsLeft, startThroughput } from './upload-progress';

describe('the time left of an upload', () => {
  it('has no estimate before two readings far enough apart', () => {
    const start = nextThroughput(startThroughput(0), 0, 0);
    expect(secondsLeft(1000, start)).toBeNull();
    expect(nextThroughput(start, 500, 100)).toBe(start);
  });

  it('estimates from the throughput, smoothed', () => {
    let t = nextThroughput(startThroughput(0), 0, 0);
    t = nextThroughput(t, 1_000_000, 1000);
    expect(t.bytesPerSecond).toBe(1_000_000);
    expect(secondsLeft(5_000_000, t)).toBe(5);
    // One slow second moves the estimate part of the way only.
    t = nextThroughput(t, 1_100_000, 2000, 0.3);
    expect(t.bytesPerSecond).toBeCloseTo(1_000_000 * 0.7 + 100_000 * 0.3);
    expect(secondsLeft(0, t)).toBe(0);
  });

  it('takes an upload resumed at an offset as a starting point, not as speed', () => {
    let t = nextThroughput(startThroughput(0), 40_000_000, 2000);
    expect(t.bytesPerSecond).toBeNull();
    t = nextThroughput(t, 41_000_000, 3000);
    expect(t.bytesPerSecond).toBe(1_000_000);
  });

  it('does not count a pause as a slow connection, nor a resent chunk as speed', () => {
    let t = nextThroughput(nextThroughput(startThroughput(0), 0, 0), 2_000_000, 1000);
    t = rebaseThroughput(t, 60_000);
    t = nextThroughput(t, 2_000_000, 60_500);
    t = nextThroughput(t, 4_000_000, 61_500);
    expect(t.bytesPerSecond).toBe(2_000_000);
    const back = nextThroughput(t, 3_000_000, 62_000);
    expect(back.bytesPerSecond).toBe(2_000_000);
    expect(back.bytes).toBe(3_000_000);
  });

  it('reads as people say it', () => {
    expect(formatTimeLeft(null)).toBe('Calculating time left…');
    expect(formatTimeLeft(0)).toBe('Almost done');
    expect(formatTimeLeft(1)).toBe('About 1 second left');
    expect(formatTimeLeft(7)).toBe('About 7 seconds left');
    expect(formatTimeLeft(33)).toBe('About 35 seconds left');
    expect(formatTimeLeft(61)).toBe('About 1 minute left');
    expect(formatTimeLeft(600)).toBe('About 10 minutes left');
    expect(formatTimeLeft(3900)).toBe('About 1 hour 5 minutes left');
    expect(formatTimeLeft(7200)).toBe('About 2 hours left');
  });
});

describe('upload percentages', () => {
  it('reaches 100 only when all is sent', () => {
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(1000, 1000)).toBe(100);
    expect(percentOf(250, 1000)).toBe(25);
  });

  it('adds files sent one after another', () => {
    expect(overallProgress([{ size: 100, sent: 100 }, { size: 300, sent: 100 }, { size: 600, sent: 0 }])).toEqual({ sent: 200, total: 1000, percent: 20 });
    expect(overallProgress([])).toEqual({ sent: 0, total: 0, percent: 0 });
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToyAccessRecord } from '../../../common/api/toys';
import { latestThrottle } from './command-throttle';
import { controlReducer, initialControl, selectorCommands } from './control-state';
import { statusToasts } from './status-toasts';
import { channelOfPlace, hostView, pickHostRecord, viewerView, withRecord } from './toy-rules';

const record = (id: number, access: ToyAccessRecord['access'], viewer_state: ToyAccessRecord['viewer_state'] = 'NONE') => ({ id, access, viewer_state }) as ToyAccessRecord;

describe('the control panel', () => {
  it('starts on Vibrate at 0 and keeps a level inside the range', () => {
    expect(initialControl).toEqual({ command: 'Vibrate', level: 0 });
    expect(controlReducer(initialControl, { type: 'level', level: 35 })).toEqual({ command: 'Vibrate', level: 20 });
    expect(controlReducer(initialControl, { type: 'level', level: -3 })).toEqual({ command: 'Vibrate', level: 0 });
  });

  it('starts another command at its minimum', () => {
    const pumping = controlReducer({ command: 'Vibrate', level: 12 }, { type: 'choose', command: 'Pump' });
    expect(pumping).toEqual({ command: 'Pump', level: 0 });
    expect(controlReducer(pumping, { type: 'level', level: 9 })).toEqual({ command: 'Pump', level: 3 });
  });

  it('resets to Vibrate at 0 when the toys stop offering the command, and keeps it otherwise', () => {
    const stroking = { command: 'Stroke' as const, level: 60 };
    expect(controlReducer(stroking, { type: 'offered', commands: ['Vibrate', 'Rotate'] })).toEqual({ command: 'Vibrate', level: 0 });
    expect(controlReducer(stroking, { type: 'offered', commands: ['Stroke', 'Position'] })).toBe(stroking);
    expect(controlReducer({ command: 'Vibrate', level: 7 }, { type: 'offered', commands: [] })).toEqual({ command: 'Vibrate', level: 0 });
  });

  it('lists Vibrate alone before the toys are known', () => {
    expect(selectorCommands([])).toEqual(['Vibrate']);
    expect(selectorCommands(['Thrusting', 'Depth'])).toEqual(['Thrusting', 'Depth']);
  });
});

describe('which record each side follows', () => {
  it('prefers a pending record for the broadcaster, then an approved one', () => {
    expect(pickHostRecord([record(1, 'APPROVED'), record(2, 'PENDING'), record(3, 'DECLINE')])?.id).toBe(2);
    expect(pickHostRecord([record(1, 'REVOKE'), record(2, 'APPROVED')])?.id).toBe(2);
    expect(pickHostRecord([record(4, 'INIT')])?.id).toBe(4);
    expect(pickHostRecord([record(1, 'DECLINE'), record(2, 'REVOKE')])).toBeNull();
  });

  it('maps access to the views', () => {
    expect(hostView(null)).toBe('choose');
    expect(hostView(record(1, 'REVOKE'))).toBe('choose');
    expect(hostView(record(1, 'PENDING'))).toBe('waiting');
    expect(hostView(record(1, 'APPROVED'))).toBe('manage');
    expect(viewerView(record(1, 'APPROVED', 'SHOW_CONTROLS'))).toBe('SHOW_CONTROLS');
    expect(viewerView(record(1, 'REVOKE', 'SHOW_CONTROLS'))).toBe('NONE');
  });

  it('replaces a record in the list, newest first', () => {
    expect(withRecord([record(1, 'DECLINE'), record(2, 'PENDING')], record(2, 'APPROVED')).map((r) => [r.id, r.access])).toEqual([[2, 'APPROVED'], [1, 'DECLINE']]);
  });

  it("sends toy operations on the room's channel", () => {
    expect(channelOfPlace({ stream_id: 5, room: 'meeting' })).toBe('meeting:5');
    expect(channelOfPlace({ stream_id: 5, room: 'stream' })).toBe('stream:5');
  });
});

describe('timing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows a status toast 2 s after it arrives, one at a time, not again for the resend', () => {
    const shown: string[] = [];
    const toasts = statusToasts(2_000, (text) => shown.push(text), globalThis);
    toasts.push('Lovense app connected.');
    vi.advanceTimersByTime(1_999);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(['Lovense app connected.']);
    toasts.push('Lovense app connected.'); // the server's resend 3 s later
    vi.advanceTimersByTime(2_000);
    expect(shown).toEqual(['Lovense app connected.']);
    toasts.push('Lovense app disconnected.');
    vi.advanceTimersByTime(500);
    toasts.push('Lovense app connected.'); // replaces the one still waiting
    vi.advanceTimersByTime(2_000);
    expect(shown).toEqual(['Lovense app connected.']);
    toasts.push('Lovense app disconnected.');
    toasts.dispose();
    vi.advanceTimersByTime(5_000);
    expect(shown).toEqual(['Lovense app connected.']);
  });

  it('throttles slider commands and always sends the last value', () => {
    const sent: number[] = [];
    const throttle = latestThrottle<number>(100, (level) => sent.push(level), { now: () => Date.now(), setTimeout, clearTimeout: (h) => clearTimeout(h as number) });
    throttle.push(1);
    throttle.push(2);
    throttle.push(3);
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([1, 3]);
    vi.advanceTimersByTime(500);
    throttle.push(4);
    expect(sent).toEqual([1, 3, 4]);
    // A timer that fires late does not hold a value once the interval has passed.
    let now = Date.now();
    const late = latestThrottle<number>(100, (level) => sent.push(level), { now: () => now, setTimeout: () => 1, clearTimeout: () => undefined });
    late.push(10);
    late.push(11);
    now += 150;
    late.push(12);
    expect(sent).toEqual([1, 3, 4, 10, 12]);
    throttle.push(5);
    throttle.cancel();
    vi.advanceTimersByTime(500);
    expect(sent).toEqual([1, 3, 4, 10, 12]);
  });
});

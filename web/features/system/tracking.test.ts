import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as Client from '../../api/client';
import type * as Tracking from './tracking';

vi.mock('../../api/client', () => ({ call: vi.fn(async () => ({ result: { tracker: 'tracker-1' } })) }));

// Imported afresh, so that the mock applies although the unit tests share workers (an earlier file may
// have loaded the real client).
let call: typeof Client.call;
let landingParams: typeof Tracking.landingParams;
let shouldTrackOpen: typeof Tracking.shouldTrackOpen;
let trackAppOpened: typeof Tracking.trackAppOpened;
beforeAll(async () => {
  vi.resetModules();
  ({ call } = await import('../../api/client'));
  ({ landingParams, shouldTrackOpen, trackAppOpened } = await import('./tracking'));
});

/** A Storage kept in a map, like a browser's for one tab. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

describe('landingParams', () => {
  it('takes the referral code from referralCode or ref, and the campaign', () => {
    expect(landingParams('?referralCode=AB12&campaign=spring')).toEqual({ referralCode: 'AB12', campaign: 'spring' });
    expect(landingParams('?ref=XY&other=1')).toEqual({ referralCode: 'XY' });
  });

  it('leaves out empty or missing values and caps their length', () => {
    expect(landingParams('?ref=&campaign=%20')).toEqual({});
    expect(landingParams(`?campaign=${'c'.repeat(150)}`).campaign).toHaveLength(100);
  });
});

describe('shouldTrackOpen', () => {
  it('sends app_opened on the first load of a session, and on any landing with a referral code', () => {
    expect(shouldTrackOpen(false, {})).toBe(true);
    expect(shouldTrackOpen(true, {})).toBe(false);
    expect(shouldTrackOpen(true, { referralCode: 'AB12' })).toBe(true);
    expect(shouldTrackOpen(false, { referralCode: 'AB12' })).toBe(true);
  });
});

describe('trackAppOpened', () => {
  const sent = () => vi.mocked(call).mock.calls.map(([, input]) => input);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  beforeEach(() => {
    vi.stubGlobal('sessionStorage', memoryStorage());
    vi.stubGlobal('localStorage', memoryStorage());
    vi.mocked(call).mockClear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sends app_opened once per browser session for plain loads', async () => {
    trackAppOpened('');
    await settle();
    trackAppOpened('?campaign=spring');
    await settle();
    expect(sent()).toEqual([{ action: 'app_opened' }]);
  });

  it('still records a referral link opened later in the same session, with the tracker already handed out', async () => {
    trackAppOpened('');
    await settle();
    trackAppOpened('?referralCode=AB12&campaign=spring');
    await settle();
    expect(sent()).toEqual([
      { action: 'app_opened' },
      { action: 'app_opened', referralCode: 'AB12', campaign: 'spring', tracker: 'tracker-1' },
    ]);
  });

  it('records every referral landing, the first one of the session included', async () => {
    trackAppOpened('?ref=XY');
    await settle();
    trackAppOpened('?ref=ZZ');
    await settle();
    expect(sent()).toEqual([
      { action: 'app_opened', referralCode: 'XY' },
      { action: 'app_opened', referralCode: 'ZZ', tracker: 'tracker-1' },
    ]);
  });
});

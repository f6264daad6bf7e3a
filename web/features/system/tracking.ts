/**
 * Campaign and referral tracking (spec part 2 §7): app_opened once per browser session (and again on
 * each landing with a referral code), then user_login and user_registered (sent by the sign-in and
 * sign-up calls, accounts/api.ts), all tied together by the tracker id the server hands out.
 * Tracking never gets in a person's way: every failure is swallowed.
 */
import { tracking } from '../../../common/api/calls';
import type { CallInput } from '../../../common/api';
import { call } from '../../api/client';

type TrackInput = CallInput<typeof tracking.trackEventPost>;
type Action = TrackInput['action'];

const TRACKER_KEY = 'limelight.tracker';
const OPENED_KEY = 'limelight.app-opened';

function read(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key);
  } catch {
    return null;
  }
}

function write(storage: () => Storage, key: string, value: string): void {
  try {
    storage().setItem(key, value);
  } catch {
    // Private mode or storage disabled: the next event simply starts a new tracker.
  }
}

/** referralCode (or `ref`) and campaign of a landing URL's query, bounded like the contract. */
export function landingParams(search: string): Pick<TrackInput, 'referralCode' | 'campaign'> {
  const params = new URLSearchParams(search);
  const referralCode = (params.get('referralCode') ?? params.get('ref'))?.trim().slice(0, 64);
  const campaign = params.get('campaign')?.trim().slice(0, 100);
  return { ...(referralCode ? { referralCode } : {}), ...(campaign ? { campaign } : {}) };
}

export async function trackEvent(action: Action, extra: Omit<TrackInput, 'action' | 'tracker'> = {}): Promise<void> {
  const tracker = read(() => localStorage, TRACKER_KEY);
  try {
    const out = await call(tracking.trackEventPost, { action, ...extra, ...(tracker ? { tracker } : {}) });
    write(() => localStorage, TRACKER_KEY, out.result.tracker);
  } catch {
    // Silent by design.
  }
}

/**
 * Whether a load of the app sends app_opened: the first load of the browser session, and every landing
 * that carries a referral code (the server credits a sign-up to the first code its tracker saw, so a
 * referral link opened later in the same session is recorded too).
 */
export function shouldTrackOpen(alreadyOpened: boolean, landing: Pick<TrackInput, 'referralCode'>): boolean {
  return !alreadyOpened || !!landing.referralCode;
}

/** Sends app_opened the first time the app loads in this browser session, and on every referral landing. */
export function trackAppOpened(search: string): void {
  const landing = landingParams(search);
  if (!shouldTrackOpen(!!read(() => sessionStorage, OPENED_KEY), landing)) return;
  write(() => sessionStorage, OPENED_KEY, '1');
  void trackEvent('app_opened', landing);
}

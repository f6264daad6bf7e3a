/**
 * The 18+ channel's age confirmation (spec part 1 §2 Channels, §4): remembered in this browser for
 * ADULT_AGREEMENT_MINUTES and, for a signed-in person, on their account (`adult_agreed`), so they are
 * not asked again on another browser.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settings } from '../../../common/api/calls';
import type { SessionUser } from '../../../common/api/accounts';
import { ADULT_AGREEMENT_MINUTES } from '../../../common/rules/adult-agreement';
import { call } from '../../api/client';
import { accountKeys } from '../accounts';

export { ADULT_AGREEMENT_MINUTES };
const STORAGE_KEY = 'limelight.adult-agreement';

export function hasAdultAgreement(now = Date.now(), storage: Pick<Storage, 'getItem'> = localStorage): boolean {
  try {
    const until = Number(storage.getItem(STORAGE_KEY));
    return Number.isFinite(until) && until > now;
  } catch {
    return false;
  }
}

export function saveAdultAgreement(now = Date.now(), storage: Pick<Storage, 'setItem'> = localStorage): void {
  try {
    storage.setItem(STORAGE_KEY, String(now + ADULT_AGREEMENT_MINUTES * 60_000));
  } catch {
    // Private mode: the popup simply asks again next time.
  }
}

/** Records a signed-in person's confirmation on their account (refused when their birthday says under 18). */
export function useAgreeAdult() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(settings.adultAgreement, {}),
    onSuccess: () => queryClient.setQueryData<SessionUser | null>(accountKeys.session(), (user) => (user ? { ...user, adult_agreed: true } : user)),
  });
}

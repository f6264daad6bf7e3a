/** The 18+ channel's age confirmation is remembered this long (spec part 1 §2 Channels). */
export const ADULT_AGREEMENT_MINUTES = 43_200;
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

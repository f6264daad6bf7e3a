/**
 * The 18+ confirmation of adult channels (spec part 1 §4 Report modal: "The 18+ agreement is stored for
 * 43200"): remembered this many minutes in the browser and, for a signed-in person, on their account.
 */
export const ADULT_AGREEMENT_MINUTES = 43_200;

/** Whether a confirmation given at `agreedAt` still holds at `now`. */
export function adultAgreementHolds(agreedAt: Date | string | number | null | undefined, now = Date.now()): boolean {
  if (agreedAt === null || agreedAt === undefined) return false;
  const at = new Date(agreedAt).getTime();
  return Number.isFinite(at) && at <= now + 60_000 && now < at + ADULT_AGREEMENT_MINUTES * 60_000;
}

/**
 * The phone number that text-message notifications go to (spec part 1 §3 `phone`, part 2 §3
 * `notify_via_text`): written in the international form, a + and the country code, 8 to 15 digits
 * (E.164). Spaces, dots, dashes and brackets people type are dropped; "00" before the country code
 * reads as "+".
 */
export const PHONE_MAX_INPUT = 32;

/** The number as stored ("+15551234567"), or null when it is not a phone number. */
export function normalisePhone(text: string): string | null {
  const compact = text.trim().replace(/[\s.\-()/]/g, '');
  const international = compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
  return /^\+[1-9]\d{7,14}$/.test(international) ? international : null;
}

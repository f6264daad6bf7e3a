/** Processors speak decimal strings ("12.50"); we count whole cents. */

export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount in cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

const DECIMAL = /^(\d{1,12})(?:\.(\d{1,8}))?$/;

/**
 * Cents of a processor's decimal amount, or null when it is not one. More than two decimals (BTCPay
 * answers "5.000000") are read, and rounded half up to the cent.
 */
export function decimalToCents(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return decimalToCents(value.toFixed(8));
  if (typeof value !== 'string') return null;
  const match = DECIMAL.exec(value.trim());
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(3, '0');
  const cents = Number(match[1]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return Number.isSafeInteger(cents) ? cents : null;
}

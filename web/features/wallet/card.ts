/**
 * The card form's rules: card numbers in groups, the contract's card checks (spec part 2 §9). Apart from
 * money.ts, whose formatting every page uses, because the checks load the contract's schemas and zod.
 */
import { cardInput } from '../../../common/api/wallet';
import { schemaErrors } from '../../api/field-errors';
import type { FieldErrors } from '../../api/field-errors';

/** Digits of a card number in groups of four as it is typed ("4242 4242 4242 4242"), at most 19 digits. */
export function spacedCardNumber(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

export interface CardValues {
  number: string;
  exp_month: string;
  exp_year: string;
  cvc: string;
  name: string;
}

export const EMPTY_CARD: CardValues = { number: '', exp_month: '', exp_year: '', cvc: '', name: '' };

export const CARD_EXPIRED = 'This card has expired';

/** The contract's card checks, then whether the expiry month has passed (the processor would decline it). */
export function cardProblems(card: CardValues, now: Date = new Date()): FieldErrors {
  const errors = schemaErrors(cardInput, {
    ...card,
    exp_month: card.exp_month === '' ? undefined : card.exp_month,
    exp_year: card.exp_year === '' ? undefined : card.exp_year,
  });
  if (!errors.exp_month && !errors.exp_year) {
    const month = Number(card.exp_month);
    const year = Number(card.exp_year);
    if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) errors.exp_month = CARD_EXPIRED;
  }
  return errors;
}

/** The card as the contract takes it. */
export function cardPayload(card: CardValues) {
  return { number: card.number.replace(/\s/g, ''), exp_month: Number(card.exp_month), exp_year: Number(card.exp_year), cvc: card.cvc, name: card.name.trim() };
}

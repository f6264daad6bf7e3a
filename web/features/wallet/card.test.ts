import { describe, expect, it } from 'vitest';
import { CARD_EXPIRED, cardPayload, cardProblems, spacedCardNumber } from './card';

describe('card form', () => {
  const now = new Date('2026-11-21T00:00:00Z');
  const good = { number: '4242 4242 4242 4242', exp_month: '12', exp_year: '2030', cvc: '123', name: 'Ann Viewer' };

  it('groups digits by four and drops everything else', () => {
    expect(spacedCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(spacedCardNumber('4242-42a')).toBe('4242 42');
    expect(spacedCardNumber('1'.repeat(25)).replace(/ /g, '')).toHaveLength(19);
  });

  it('mirrors the contract checks', () => {
    expect(cardProblems(good, now)).toEqual({});
    expect(cardProblems({ ...good, number: '4242' }, now).number).toBe('This card number is not valid');
    expect(cardProblems({ ...good, cvc: '12' }, now).cvc).toBe('CVC is not valid');
    expect(cardProblems({ ...good, name: '  ' }, now).name).toBe('Name on card is required');
    expect(cardProblems({ ...good, exp_month: '13' }, now).exp_month).toBe('Expiry month is not valid');
    expect(cardProblems({ ...good, exp_month: '' }, now).exp_month).toBeTruthy();
  });

  it('refuses an expired card', () => {
    expect(cardProblems({ ...good, exp_month: '10', exp_year: '2026' }, now).exp_month).toBe(CARD_EXPIRED);
    expect(cardProblems({ ...good, exp_month: '11', exp_year: '2026' }, now)).toEqual({});
  });

  it('sends digits and numbers', () => {
    expect(cardPayload(good)).toEqual({ number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123', name: 'Ann Viewer' });
  });
});

import { describe, expect, it } from 'vitest';
import {
  coins, figure, filtersKey, hasReferralAccess, hours, linkLabel, parseLinkChoice, periodLabel, rateLabel, ratePercent, referralFilters,
  shownDate, shownLink,
} from './referral-rules';

describe('hasReferralAccess', () => {
  it('needs ALLOW REFERRAL_ACCESS and a first referral link', () => {
    expect(hasReferralAccess({ perms: ['ALLOW REFERRAL_ACCESS'], referral_code_id: 3 })).toBe(true);
    expect(hasReferralAccess({ perms: ['ALLOW REFERRAL_ACCESS'], referral_code_id: null })).toBe(false);
    expect(hasReferralAccess({ perms: ['CREATE STREAM_CHAT'], referral_code_id: 3 })).toBe(false);
    expect(hasReferralAccess(null)).toBe(false);
    expect(hasReferralAccess(undefined)).toBe(false);
  });
});

describe('referralFilters', () => {
  it('names the picked link, or none for all links, and always the days', () => {
    expect(referralFilters(null, { from: '2026-03-01', to: '2026-03-31' })).toEqual({ from: '2026-03-01', to: '2026-03-31' });
    expect(referralFilters(7, { from: '2026-03-01', to: '2026-03-05' })).toEqual({ referral_code_id: 7, from: '2026-03-01', to: '2026-03-05' });
  });

  it('keys the filters, so that a list goes back to its first page when they change', () => {
    expect(filtersKey(null)).toBe('');
    expect(filtersKey({ from: '2026-03-01', to: '2026-03-31' })).toBe('all:2026-03-01:2026-03-31');
    expect(filtersKey({ referral_code_id: 7, from: '2026-03-01', to: '2026-03-31' })).toBe('7:2026-03-01:2026-03-31');
  });
});

describe('links', () => {
  const links = [
    { referral_code_id: 3, type: 'AGENT' as const, campaign: null },
    { referral_code_id: 4, type: 'INFLUENCER' as const, campaign: null },
    { referral_code_id: 9, type: 'INFLUENCER' as const, campaign: 'spring-2026' },
  ];

  it('are labelled by programme and campaign', () => {
    expect(links.map(linkLabel)).toEqual(['Agent · main link', 'Influencer · main link', 'Influencer · spring-2026']);
  });

  it('are picked by id; anything else is all links', () => {
    expect(parseLinkChoice('9')).toBe(9);
    expect(parseLinkChoice('')).toBeNull();
    expect(parseLinkChoice('0')).toBeNull();
    expect(parseLinkChoice('-2')).toBeNull();
    expect(parseLinkChoice('1.5')).toBeNull();
    expect(parseLinkChoice('99999999999999999999')).toBeNull();
  });

  it('show the picked link, or with all links the first link of the person, or the first of the list', () => {
    expect(shownLink(links, 9, 3)?.referral_code_id).toBe(9);
    expect(shownLink(links, null, 4)?.referral_code_id).toBe(4);
    expect(shownLink(links, null, 99)?.referral_code_id).toBe(3);
    expect(shownLink(links, null, null)?.referral_code_id).toBe(3);
    expect(shownLink(links, 99, 3)).toBeNull();
    expect(shownLink([], null, 3)).toBeNull();
  });
});

describe('rates', () => {
  it('read as rate × 100 percent', () => {
    expect(ratePercent(0.05)).toBe('5%');
    expect(ratePercent(0.125)).toBe('12.5%');
    expect(ratePercent(0.07)).toBe('7%');
    expect(ratePercent(0.1234)).toBe('12.34%');
    expect(ratePercent(0)).toBe('0%');
    expect(ratePercent(1)).toBe('100%');
    expect(ratePercent(Number.NaN)).toBe('—');
  });

  it('name their programme and commission type', () => {
    expect(rateLabel({ type: 'AGENT', commission_type: 'EARNINGS', rate: 0.05 })).toBe('Agent · Earnings 5% of the fee');
    expect(rateLabel({ type: 'INFLUENCER', commission_type: 'SPENDING', rate: 0.125 })).toBe('Influencer · Spending 12.5% of the fee');
  });
});

describe('figures', () => {
  it('are written in full, coins with their unit, hours to a tenth', () => {
    expect(figure(1234.5)).toBe('1,234.5');
    expect(figure(Number.NaN)).toBe('0');
    expect(coins(1)).toBe('1 coin');
    expect(coins(0)).toBe('0 coins');
    expect(coins(1500)).toBe('1,500 coins');
    expect(coins(2.456)).toBe('2.46 coins');
    expect(hours(12.345)).toBe('12.3');
    expect(hours(3)).toBe('3');
  });
});

describe('dates', () => {
  it('show a day as that day, an instant in the viewer’s calendar, anything else as it came', () => {
    expect(shownDate('2026-03-05')).toBe('Mar 5, 2026');
    expect(shownDate('2026-03-05T23:30:00Z', 'UTC')).toBe('Mar 5, 2026');
    expect(shownDate('2026-03-05T23:30:00Z', 'Asia/Tokyo')).toBe('Mar 6, 2026');
    expect(shownDate('soon')).toBe('soon');
  });

  it('show a settlement period as one day or its first and last days', () => {
    expect(periodLabel('2026-03-05T00:00:00.000Z', '2026-03-06T00:00:00.000Z')).toBe('Mar 5, 2026');
    expect(periodLabel('2026-03-01T00:00:00.000Z', '2026-03-08T00:00:00.000Z')).toBe('Mar 1, 2026 – Mar 7, 2026');
  });
});

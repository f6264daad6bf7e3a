import { describe, expect, it } from 'vitest';
import { breaksPaidStaysPaid, clamp, isPriceStep, lowestPrice, owedAfterTip, owedTips, postPrice, roundUpToStep, subscriberPrice } from './pay-wall';

describe('pay-wall rules', () => {
  it('owes the minimum less the spend, never below zero', () => {
    expect(owedTips(100, 30)).toBe(70);
    expect(owedTips(100, 130)).toBe(0);
    expect(owedTips(0, 0)).toBe(0);
    expect(owedAfterTip(20, 30)).toBe(0);
  });

  it('keeps a paid stream paid', () => {
    expect(breaksPaidStaysPaid(10, 0)).toBe(true);
    expect(breaksPaidStaysPaid(10, 20)).toBe(false);
    expect(breaksPaidStaysPaid(0, 0)).toBe(false);
    expect(lowestPrice(0)).toBe(0);
    expect(lowestPrice(30)).toBe(10);
  });

  it('rounds up to the step and clamps', () => {
    expect(roundUpToStep(251)).toBe(260);
    expect(roundUpToStep(250)).toBe(250);
    expect(clamp(6000, 250, 5000)).toBe(5000);
    expect(clamp(10, 250, 5000)).toBe(250);
    expect(isPriceStep(30)).toBe(true);
    expect(isPriceStep(35)).toBe(false);
  });

  it('prices a paid post: free stays free, else rounded up to 10 and held within 10–1000', () => {
    expect(postPrice(0)).toBe(0);
    expect(postPrice(1)).toBe(10);
    expect(postPrice(251)).toBe(260);
    expect(postPrice(1000)).toBe(1000);
    expect(postPrice(1001)).toBe(1000);
    expect(postPrice(99_999)).toBe(1000);
  });

  it('takes a subscriber discount off a post price in whole steps', () => {
    expect(subscriberPrice(100, 0)).toBe(100);
    expect(subscriberPrice(100, 0.25)).toBe(80);
    expect(subscriberPrice(100, 1)).toBe(0);
  });
});

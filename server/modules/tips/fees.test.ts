import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { platformFee } from '../ledger';

describe('platform fees', () => {
  it('defaults to 20 % on tips, subscriptions, device-access tips, show minutes and unlocked messages and 0 % on video calls, and reads PLATFORM_FEES per kind', () => {
    expect(loadConfig({}).platformFees).toEqual({ tip: 20, subscription: 20, post_purchase: 20, meeting_fee: 0, toy_tip: 20, show_minute: 20, message_unlock: 20 });
    expect(loadConfig({ PLATFORM_FEES: 'tip=15, subscription=30' }).platformFees).toEqual({ tip: 15, meeting_fee: 0, post_purchase: 20, subscription: 30, toy_tip: 20, show_minute: 20, message_unlock: 20 });
    expect(loadConfig({ PLATFORM_FEES: '' }).platformFees.tip).toBe(20);
  });

  it('refuses unknown kinds and percents outside 0–100', () => {
    for (const bad of ['tips=20', 'tip=101', 'tip=-1', 'tip', 'tip=2.5']) expect(() => loadConfig({ PLATFORM_FEES: bad }), bad).toThrow(/PLATFORM_FEES/);
  });

  it('rounds amount × percent / 100 up, so no payment is too small to pay its fee', () => {
    expect(platformFee(100, 20)).toBe(20);
    expect(platformFee(7, 20)).toBe(2);
    expect(platformFee(4, 20)).toBe(1);
    expect(platformFee(1, 20)).toBe(1);
    expect(platformFee(5, 0)).toBe(0);
    // 25 tips of 4 coins pay the same 20 % as one tip of 100.
    expect(25 * platformFee(4, 20)).toBeGreaterThanOrEqual(platformFee(100, 20));
  });
});

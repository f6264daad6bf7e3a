import { describe, expect, it } from 'vitest';
import { landingParams } from './tracking';

describe('landingParams', () => {
  it('takes the referral code from referralCode or ref, and the campaign', () => {
    expect(landingParams('?referralCode=AB12&campaign=spring')).toEqual({ referralCode: 'AB12', campaign: 'spring' });
    expect(landingParams('?ref=XY&other=1')).toEqual({ referralCode: 'XY' });
  });

  it('leaves out empty or missing values and caps their length', () => {
    expect(landingParams('?ref=&campaign=%20')).toEqual({});
    expect(landingParams(`?campaign=${'c'.repeat(150)}`).campaign).toHaveLength(100);
  });
});

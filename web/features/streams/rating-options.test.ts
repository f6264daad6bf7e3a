import { describe, expect, it } from 'vitest';
import { allowedRatings, ratingMenu } from './rating-options';

describe('allowedRatings', () => {
  it('offers the ratings the live permissions allow, 18+ only in an adult skin', () => {
    const perms = ['CREATE STREAM_LIVE_G', 'CREATE STREAM_LIVE_PLUS18'];
    expect(allowedRatings(perms, false)).toEqual(['G']);
    expect(allowedRatings(perms, true)).toEqual(['G', 'PLUS_18']);
    expect(allowedRatings(['CREATE STREAM_LIVE_PLUS14'], true)).toEqual(['PLUS_14']);
  });

  it('shows a stored rating this skin cannot offer as it is, and says it plays elsewhere', () => {
    const perms = ['CREATE STREAM_LIVE_G', 'CREATE STREAM_LIVE_PLUS18'];
    expect(ratingMenu(perms, false, 'PLUS_18')).toEqual({ ratings: ['G', 'PLUS_18'], elsewhere: true });
    expect(ratingMenu(perms, true, 'PLUS_18')).toEqual({ ratings: ['G', 'PLUS_18'], elsewhere: false });
    expect(ratingMenu(perms, false, 'G')).toEqual({ ratings: ['G'], elsewhere: false });
  });
});

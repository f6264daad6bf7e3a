import { describe, expect, it } from 'vitest';
import { allowedRatings } from './rating-options';

describe('allowedRatings', () => {
  it('offers the ratings the live permissions allow, 18+ only in an adult skin', () => {
    const perms = ['CREATE STREAM_LIVE_G', 'CREATE STREAM_LIVE_PLUS18'];
    expect(allowedRatings(perms, false)).toEqual(['G']);
    expect(allowedRatings(perms, true)).toEqual(['G', 'PLUS_18']);
    expect(allowedRatings(['CREATE STREAM_LIVE_PLUS14'], true)).toEqual(['PLUS_14']);
  });
});

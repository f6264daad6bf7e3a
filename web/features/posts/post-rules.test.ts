import { describe, expect, it } from 'vitest';
import { POST_SCHEDULE_MAX_DAYS } from '../../../common/rules/post-schedule';
import { fill, MSG } from '../../../common/messages';
import { formatDuration } from '../../../common/rules/format';
import { canEditAudience, expiryError, expiryIso, localDateTimeValue, mediaCountLabel, needsPurchase, postTip, publishAtError, priceRoundedNote, shownTip, uploadRatings, wrapIndex } from './post-rules';

describe('the paid post tip', () => {
  it('rounds up to a multiple of 10 and holds it between 10 and 1000; 0 stays free', () => {
    expect(postTip(0)).toBe(0);
    expect(postTip(-5)).toBe(0);
    expect(postTip(Number.NaN)).toBe(0);
    expect(postTip(1)).toBe(10);
    expect(postTip(10)).toBe(10);
    expect(postTip(11)).toBe(20);
    expect(postTip(251)).toBe(260);
    expect(postTip(12.5)).toBe(20);
    expect(postTip(1000)).toBe(1000);
    expect(postTip(1001)).toBe(1000);
    expect(postTip(99_999)).toBe(1000);
  });

  it('shows the rounded value when the field is left, and leaves what is no number for the checks', () => {
    expect(shownTip('')).toBe('0');
    expect(shownTip(' 251 ')).toBe('260');
    expect(shownTip('5')).toBe('10');
    expect(shownTip('2000')).toBe('1000');
    expect(shownTip('abc')).toBe('abc');
  });
});

describe('the carousel page', () => {
  it('wraps past either end', () => {
    expect(wrapIndex(0, 3)).toBe(0);
    expect(wrapIndex(3, 3)).toBe(0);
    expect(wrapIndex(-1, 3)).toBe(2);
    expect(wrapIndex(7, 3)).toBe(1);
    expect(wrapIndex(-4, 3)).toBe(2);
    expect(wrapIndex(5, 1)).toBe(0);
    expect(wrapIndex(2, 0)).toBe(0);
  });
});

describe('what a viewer may do with a post', () => {
  const post = { user_id: 7, has_paid: false, price: 50, media: [], audience: 'public' as const };
  it('asks others to buy a paid post they have not bought, never its owner', () => {
    expect(needsPurchase(post, 8)).toBe(true);
    expect(needsPurchase(post, null)).toBe(true);
    expect(needsPurchase(post, 7)).toBe(false);
    expect(needsPurchase({ ...post, has_paid: true }, 8)).toBe(false);
    expect(needsPurchase({ ...post, price: 0 }, 8)).toBe(false);
  });
  it('lets the owner edit the audience of a post that is not private', () => {
    expect(canEditAudience(post, 7)).toBe(true);
    expect(canEditAudience({ ...post, audience: 'private' }, 7)).toBe(false);
    expect(canEditAudience(post, 8)).toBe(false);
  });
});

describe('the upload form', () => {
  it('offers the ratings of the upload permissions, 18+ only in an adult skin', () => {
    const perms = ['CREATE STREAM_UPLOAD_G', 'CREATE STREAM_UPLOAD_PLUS18', 'CREATE STREAM_LIVE_PLUS14'];
    expect(uploadRatings(perms, false)).toEqual(['G']);
    expect(uploadRatings(perms, true)).toEqual(['G', 'PLUS_18']);
    expect(uploadRatings(['CREATE STREAM_UPLOAD_PLUS14'], false)).toEqual(['PLUS_14']);
  });

  it('takes an empty expiry or a future one', () => {
    const now = new Date('2030-05-01T12:00:00');
    expect(expiryError('', now)).toBeUndefined();
    expect(expiryError('2030-05-01T12:30', now)).toBeUndefined();
    expect(expiryError('2030-05-01T11:59', now)).toBe(MSG.expiryInFuture);
    expect(expiryError('not a date', now)).toBe(MSG.expiryInFuture);
    expect(expiryIso('')).toBeNull();
    expect(expiryIso('2030-05-01T12:30')).toBe(new Date('2030-05-01T12:30').toISOString());
    expect(localDateTimeValue(new Date(2030, 0, 2, 3, 4))).toBe('2030-01-02T03:04');
  });

  it('takes an empty publication time, or one ahead within the limit and before the expiry', () => {
    const now = new Date('2030-05-01T12:00:00');
    const ahead = fill(MSG.publishAtFuture, { days: POST_SCHEDULE_MAX_DAYS });
    expect(publishAtError('', '', now)).toBeUndefined();
    expect(publishAtError('2030-05-02T09:00', '', now)).toBeUndefined();
    expect(publishAtError('2030-05-01T11:00', '', now)).toBe(ahead);
    expect(publishAtError('2030-09-01T12:00', '', now)).toBe(ahead);
    expect(publishAtError('soon', '', now)).toBe(ahead);
    expect(publishAtError('2030-05-02T09:00', '2030-05-02T08:00', now)).toBe(MSG.expiryAfterPublication);
    expect(publishAtError('2030-05-02T09:00', '2030-05-03T08:00', now)).toBeUndefined();
  });
});

describe('how media read', () => {
  it('counts and times', () => {
    expect(mediaCountLabel('image', 1)).toBe('1 image');
    expect(mediaCountLabel('image', 4)).toBe('4 images');
    expect(mediaCountLabel('video', 1)).toBe('1 video');
    expect(formatDuration(42)).toBe('0:42');
    expect(formatDuration(725)).toBe('12:05');
    expect(formatDuration(3723)).toBe('1:02:03');
  });
});

describe('priceRoundedNote', () => {
  it('says when the typed price is not one a post can have, and what it became', () => {
    expect(priceRoundedNote('55')).toEqual({ typed: '55', price: '60' });
    expect(priceRoundedNote('5000')).toEqual({ typed: '5000', price: '1000' });
    expect(priceRoundedNote('60')).toBeNull();
    expect(priceRoundedNote('0')).toBeNull();
    expect(priceRoundedNote('')).toBeNull();
    expect(priceRoundedNote('abc')).toBeNull();
  });
});

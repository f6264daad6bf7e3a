/** Which ratings a broadcaster may pick (spec part 1 §5 Broadcast setup): one live permission each, 18+ only in an adult skin. */
import type { AUDIENCES, RATINGS } from '../../../common/api/streams';

type Rating = (typeof RATINGS)[number];

const LIVE_PERMISSION: Record<Rating, string> = {
  G: 'CREATE STREAM_LIVE_G',
  PLUS_14: 'CREATE STREAM_LIVE_PLUS14',
  PLUS_18: 'CREATE STREAM_LIVE_PLUS18',
};

export { RATING_LABEL } from '../../../common/rules/rating-labels';

export function allowedRatings(perms: readonly string[], adultSkin: boolean): Rating[] {
  return (Object.keys(LIVE_PERMISSION) as Rating[]).filter((r) => perms.includes(LIVE_PERMISSION[r]) && (r !== 'PLUS_18' || adultSkin));
}

/**
 * The rating menu for a stream whose stored rating is `stored`: the ratings the broadcaster may pick here, and the
 * stored one even when this skin cannot offer it (shown as it is, never silently as another; `elsewhere` says so).
 */
export function ratingMenu(perms: readonly string[], adultSkin: boolean, stored: Rating): { ratings: Rating[]; elsewhere: boolean } {
  const ratings = allowedRatings(perms, adultSkin);
  if (ratings.includes(stored)) return { ratings, elsewhere: false };
  const order = Object.keys(LIVE_PERMISSION) as Rating[];
  return { ratings: order.filter((r) => r === stored || ratings.includes(r)), elsewhere: true };
}

export const AUDIENCE_LABEL: Record<(typeof AUDIENCES)[number], string> = { PUBLIC: 'Public', FOLLOWERS: 'Followers', SUBSCRIBERS: 'Subscribers', PRIVATE: 'Private' };

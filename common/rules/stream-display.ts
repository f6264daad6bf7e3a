/** How a stream's numbers and title read on screen (spec part 1 §2 Stream view, part 2 §10). */

/** Appended to the title of a live stream when missing (spec part 1 §5 Broadcast setup), for search. */
export const LIVE_TAG = '#live';

/** Viewers shown to viewers = live viewers (the broadcaster never among them) − 2, floored at 0 (decision 0046). */
export const shownViewers = (viewers: number) => Math.max(0, viewers - 2);

/** Likes shown = saved likes (likes) + realtime likes (rlikes). */
export const shownLikes = (stream: { likes: number; rlikes: number }) => stream.likes + stream.rlikes;

const liveTag = new RegExp(`\\s*${LIVE_TAG}(?![\\w-])`, 'gi');

/** The title as people read it: the '#live' tag the server adds for search stays out of sight. */
export const shownTitle = (title: string) => title.replace(liveTag, '').trim() || title.trim();

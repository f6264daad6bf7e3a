/** Profiles, follow and user search (spec part 1 §2 Profile, part 2 §7 Follow, Search). */
import { z } from 'zod';
import { PAGE_SIZE, SEARCH_MIN_CHARS } from '../constants';
import { fill, MSG } from '../messages';
import { defineCall, success } from './define';
import { flag, userId, numeric } from './fields';

export const publicProfile = z.object({
  user_id: z.number(),
  username: z.string(),
  fullname: z.string(),
  avatar: z.string().nullable(),
  description: z.string(),
  country: z.string(),
  followers: z.number(),
  following: z.number(),
  /** Likes on the user's streams and posts. */
  likes: z.number(),
  overall_rating: z.number(),
  am_following: z.boolean(),
  following_notify: z.boolean(),
  following_me: z.boolean(),
  is_self: z.boolean(),
  /** The caller holds a paid-up subscription to this user (then the profile shows no Follow). */
  subscribed: z.boolean(),
  /** The caller may subscribe: signed in, not this user, and this user offers plans. */
  can_subscribe: z.boolean(),
});
export type PublicProfile = z.infer<typeof publicProfile>;

export const userLookup = defineCall({
  method: 'GET',
  path: '/api/user/user-lookup',
  refusals: [404],
  summary: "A user's public profile, with the caller's follow state",
  input: z.strictObject({ id: userId }),
  output: success({ user: publicProfile }),
});

export const toggleFollowing = defineCall({
  method: 'POST',
  path: '/api/user/toggle-following',
  refusals: [403, 404],
  summary: 'Follow (isFollowing true) or unfollow (false) user id; following turns notifications on unless notify is false',
  input: z.strictObject({ id: userId, isFollowing: flag, notify: flag.optional() }),
  output: success({ is_following: z.boolean(), notify: z.boolean(), followers: z.number() }),
});

export const toggleNotification = defineCall({
  method: 'POST',
  path: '/api/user/toggle-notification',
  refusals: [403, 404],
  summary: 'The bell: notifications from user id on or off; only while following',
  input: z.strictObject({ id: userId, notify: flag }),
  output: success({ notify: z.boolean() }),
});

export const follower = z.object({
  user_id: z.number(),
  username: z.string(),
  avatar: z.string().nullable(),
  city: z.string(),
  country: z.string(),
  address: z.string(),
  /** Whether the caller follows this user. */
  am_following: z.boolean(),
});

const pageInput = {
  offset: numeric(z.number().int().min(0).max(1_000_000).default(0)),
  limit: numeric(z.number().int().min(1).max(PAGE_SIZE.followers).default(PAGE_SIZE.followers)),
};

/** Filters by username once it has 3+ characters; shorter text means no filter (spec part 2 §5). */
const searchText = z.string().trim().max(100).optional();

export const followers = defineCall({
  method: 'GET',
  path: '/api/user/followers',
  refusals: [404],
  summary: "A user's followers (the caller's when user_id is omitted), newest first, 200 a page",
  input: z.strictObject({ user_id: userId.optional(), search_text: searchText, ...pageInput }),
  output: success({ followers: z.array(follower), total: z.number() }),
});

export const following = defineCall({
  method: 'GET',
  path: '/api/user/following',
  refusals: [404],
  summary: 'The users id follows (fid: only that one, to ask "does id follow fid?"), 200 a page',
  input: z.strictObject({ id: userId, fid: userId.optional(), search_text: searchText, ...pageInput }),
  output: success({ following: z.array(follower), total: z.number() }),
});

export const userSearchResult = z.object({
  user_id: z.number(),
  avatar: z.string().nullable(),
  username: z.string(),
  likes: z.number(),
  overall_rating: z.number(),
  am_following: z.boolean(),
});

export const searchUser = defineCall({
  method: 'GET',
  path: '/api/channel/search-user',
  summary: 'Users whose name resembles the search (trigram similarity), best first',
  input: z.strictObject({
    search: z.string().trim().min(SEARCH_MIN_CHARS, fill(MSG.searchMin, { n: SEARCH_MIN_CHARS })).max(100),
    ...pageInput,
    limit: numeric(z.number().int().min(1).max(PAGE_SIZE.streams).default(PAGE_SIZE.streams)),
  }),
  output: success({ users: z.array(userSearchResult), total: z.number() }),
});

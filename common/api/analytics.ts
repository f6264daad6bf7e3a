/**
 * Creator analytics (spec part 2 §2 screens 2 and 6, §3 analytics events, §7 user-analytics, §8, §9).
 *
 * One call answers any set of events for one creator and one range of days (`from`..`to`, UTC days,
 * both included). Totals and the three daily series come from per-creator-per-day rollups; the top lists
 * are ranked over the range, `limit` a page (5 on the dashboard). Figures are folded from the books,
 * views and follows a minute or so after they happen; likes (saved and realtime, as the streams show them)
 * are those of the streams that started in the range; earnings are read from the books at once. Tips are
 * counted in coins.
 */
import { z } from 'zod';
import { PAGE_SIZE } from '../constants';
import { MSG } from '../messages';
import { defineCall, success } from './define';
import { dayField as day, oneOf, userId, wholeNumber } from './fields';

/**
 * The spec's four totals, and TOTAL_EARNINGS (ours): the coins that reached the creator's wallet in the
 * range from every kind of earning — tips, subscriptions, post sales, call fees, toy tips, ad and referral
 * commissions — net of the platform's fee, as the books say (decision 0046).
 */
export const TOTAL_EVENTS = ['TOTAL_EARNINGS', 'TOTAL_TIP_COUNT', 'TOTAL_STREAM_VIEW_COUNT', 'TOTAL_STREAM_LIKE_COUNT', 'TOTAL_FOLLOWERS_COUNT'] as const;
export const DAILY_EVENTS = ['TOTAL_TIP_BY_DATE', 'TOTAL_STREAM_VIEWS_BY_DATE', 'TOTAL_FOLLOWERS_BY_DATE'] as const;
export const TOP_EVENTS = ['TOP_TIPPERS', 'TOP_STREAMS_BY_TIP', 'TOP_STREAM_BY_VIEW'] as const;
export const ANALYTICS_EVENTS = [...TOTAL_EVENTS, ...DAILY_EVENTS, ...TOP_EVENTS] as const;
export type AnalyticsEvent = (typeof ANALYTICS_EVENTS)[number];

/** The figure each daily series carries (spec part 2 §3). */
export const DAILY_FIGURE = { TOTAL_TIP_BY_DATE: 'totalTip', TOTAL_STREAM_VIEWS_BY_DATE: 'totalStreamViews', TOTAL_FOLLOWERS_BY_DATE: 'totalFollowers' } as const;

const eventName = z.enum(ANALYTICS_EVENTS, { error: oneOf(ANALYTICS_EVENTS) });

/** `event=A,B` or `event=A&event=B`; each named once. */
const eventList = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').map((part) => part.trim()).filter(Boolean) : value),
  z.array(eventName, { error: MSG.analyticsEventsRequired }).min(1, MSG.analyticsEventsRequired).max(ANALYTICS_EVENTS.length)
    .transform((events) => [...new Set(events)]),
);


export const userAnalyticsInput = z.strictObject({
  event: eventList,
  /** Another creator's figures: administrators only. */
  user_id: userId.optional(),
  from: day,
  to: day,
  offset: wholeNumber(0, 10_000).default(0),
  limit: wholeNumber(1, 50).default(PAGE_SIZE.topLists),
}).refine((input) => input.from <= input.to, { message: MSG.analyticsRangeOrder, path: ['to'] })
  .meta({ examples: [{ event: 'TOTAL_TIP_COUNT,TOTAL_TIP_BY_DATE,TOP_TIPPERS', from: '2026-11-01', to: '2026-11-30' }] });

const tipper = z.object({ user_id: z.number(), sname: z.string(), thumb_url: z.string(), tip_coin: z.number() });
const topStream = z.object({
  stream_id: z.number(), title: z.string(), thumb_url: z.string(),
  /** The stream's likes and views over its life; `tip_coin` and the ranking are the range's. */
  likes: z.number(), views: z.number(), tip_coin: z.number(),
  /** Views in the range (the ranking of TOP_STREAM_BY_VIEW). */
  range_views: z.number(),
  /** The broadcast's tip goals: how many it set, how many tips reached. */
  goals_set: z.number(),
  goals_reached: z.number(),
});

export const analyticsResult = z.object({
  TOTAL_EARNINGS: z.number().optional(),
  TOTAL_TIP_COUNT: z.number().optional(),
  TOTAL_STREAM_VIEW_COUNT: z.number().optional(),
  TOTAL_STREAM_LIKE_COUNT: z.number().optional(),
  TOTAL_FOLLOWERS_COUNT: z.number().optional(),
  TOTAL_TIP_BY_DATE: z.array(z.object({ date: z.string(), totalTip: z.number() })).optional(),
  TOTAL_STREAM_VIEWS_BY_DATE: z.array(z.object({ date: z.string(), totalStreamViews: z.number() })).optional(),
  TOTAL_FOLLOWERS_BY_DATE: z.array(z.object({ date: z.string(), totalFollowers: z.number() })).optional(),
  TOP_TIPPERS: z.object({ list: z.array(tipper), total: z.number() }).optional(),
  TOP_STREAMS_BY_TIP: z.object({ list: z.array(topStream), total: z.number() }).optional(),
  TOP_STREAM_BY_VIEW: z.object({ list: z.array(topStream), total: z.number() }).optional(),
});
export type AnalyticsResult = z.infer<typeof analyticsResult>;
export type TopTipper = z.infer<typeof tipper>;
export type TopStream = z.infer<typeof topStream>;

export const userAnalytics = defineCall({
  method: 'GET',
  path: '/api/user/user-analytics',
  summary: "A creator's figures for a range of days: totals, daily series (every day of the range from the creator's first day with figures up to today, zeros included) and top lists",
  refusals: [403],
  input: userAnalyticsInput,
  output: success({
    user_id: z.number(),
    from: z.string(),
    to: z.string(),
    /** Figures include what happened before this instant (ISO); later activity is folded within a minute or so. */
    folded_until: z.string().nullable(),
    result: analyticsResult,
  }),
});

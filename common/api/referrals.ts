/**
 * The referral programme (spec part 1 §1, §2 Referral dashboard, §3 Referral, §5, §6 ALLOW REFERRAL_ACCESS;
 * part 2 §7 referral calls, §8, §9).
 *
 * - Links: a holder of ALLOW REFERRAL_ACCESS has a link per programme — AGENT (brings broadcasters: earns
 *   on what they earn) and INFLUENCER (brings viewers: earns on what they spend) — and may add links for
 *   campaigns. A link is `?referralCode=<code>&campaign=<campaign>` on the sign-up page.
 * - Attribution: a visitor's first referral code (tracked by track-event) is the one a sign-up from that
 *   browser is credited to, once, on `user_registered`.
 * - Commissions: per settlement period (a day by default), each referred user's base — coins earned
 *   (AGENT) or spent (INFLUENCER) since being referred — times the programme's rate is paid to the
 *   referrer through the ledger (`referral_commission`). Figures here are those of settled periods
 *   ("stats update daily"); the open period's is `pending_settlement`.
 * - Every call but link-create takes an optional `referral_code_id` (one link's figures; all links when
 *   left out) and an optional range of days `from`..`to` (UTC, both included; all time when left out).
 */
import { z } from 'zod';
import { MSG } from '../messages';
import { defineCall, success } from './define';
import { dayField, numeric, oneOf, optionalText, wholeNumber } from './fields';

export const REFERRAL_TYPES = ['AGENT', 'INFLUENCER'] as const;
export type ReferralType = (typeof REFERRAL_TYPES)[number];
/** What a programme's rate applies to: coins the referred user earned, or spent. */
export const COMMISSION_TYPES = ['EARNINGS', 'SPENDING'] as const;
export type CommissionType = (typeof COMMISSION_TYPES)[number];
export const COMMISSION_TYPE_OF: Record<ReferralType, CommissionType> = { AGENT: 'EARNINGS', INFLUENCER: 'SPENDING' };

/** Referred users a page shows on the dashboard. */
export const REFERRED_PAGE_SIZE = 10;
/** Links one person may hold (the two programme links included). */
export const MAX_REFERRAL_LINKS = 20;

export const referralCodeId = numeric(z.number({ error: MSG.mustBeReferralLink }).int(MSG.mustBeReferralLink).positive(MSG.mustBeReferralLink).max(Number.MAX_SAFE_INTEGER, MSG.mustBeReferralLink));

const filters = {
  referral_code_id: referralCodeId.optional(),
  from: dayField.optional(),
  to: dayField.optional(),
};
const inOrder = (input: Record<string, unknown>) => typeof input.from !== 'string' || typeof input.to !== 'string' || input.from <= input.to;
const filtered = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject({ ...filters, ...shape }).refine((input) => inOrder(input as Record<string, unknown>), { message: MSG.analyticsRangeOrder, path: ['to'] });

export const referralLink = z.object({
  referral_code_id: z.number(),
  code: z.string(),
  type: z.enum(REFERRAL_TYPES),
  campaign: z.string().nullable(),
  /** The sign-up page with the code (and campaign), on the caller's skin and origin. */
  url: z.string(),
  created_at: z.string(),
});
export type ReferralLink = z.infer<typeof referralLink>;

export const referralRate = z.object({ type: z.enum(REFERRAL_TYPES), commission_type: z.enum(COMMISSION_TYPES), rate: z.number() });

export const referralSummary = defineCall({
  method: 'GET',
  path: '/api/user/referral-summary',
  summary: "The caller's links, programme rates, referral count and settlements: the last one and the open period's",
  refusals: [403, 404],
  input: filtered({}),
  output: success({
    links: z.array(referralLink),
    summary: z.object({
      /** Coins of the last settlement paid to the caller (0 when none yet). */
      last_settlement: z.number(),
      /** Coins accrued in the open period, paid when it closes. */
      pending_settlement: z.number(),
      pending_settlement_amount_formatted: z.string(),
      last_settlement_amount_formatted: z.string(),
      /** '' before the first settlement. */
      last_settlement_date_formatted: z.string(),
      total_referral_count: z.number(),
      rates: z.array(referralRate),
    }),
  }),
});

const referredUser = z.object({ user_id: z.number(), avatar: z.string().nullable(), username: z.string() });

export const referralReferredList = defineCall({
  method: 'GET',
  path: '/api/user/referral-referred-list',
  summary: 'People who signed up through the caller\'s links (newest first), each with the base and the commission of settled periods',
  refusals: [403, 404],
  input: filtered({ offset: wholeNumber(0, 1_000_000).default(0), limit: wholeNumber(1, 50).default(REFERRED_PAGE_SIZE) }),
  output: success({
    referrals: z.array(z.object({
      user: referredUser,
      type: z.enum(REFERRAL_TYPES),
      campaign: z.string().nullable(),
      referred_at: z.string(),
      commission: z.object({ base_total: z.number(), earn_total: z.number() }),
    })),
    total_rows: z.number(),
  }),
});

export const referralSummaryReferred = defineCall({
  method: 'GET',
  path: '/api/user/referral-summary-referred',
  summary: 'How many signed up through the links: in all, in the range, per programme and per day of the range',
  refusals: [403, 404],
  input: filtered({}),
  output: success({
    referred: z.object({
      total: z.number(),
      in_range: z.number(),
      by_type: z.object({ AGENT: z.number(), INFLUENCER: z.number() }),
      by_date: z.array(z.object({ date: z.string(), count: z.number() })),
    }),
  }),
});

export const referralSummaryCommission = defineCall({
  method: 'GET',
  path: '/api/user/referral-summary-commission',
  summary: 'Commission of the settled periods in the range, per commission type, and the settlements paid',
  refusals: [403, 404],
  input: filtered({}),
  output: success({
    commission: z.object({
      base_total: z.number(),
      earn_total: z.number(),
      by_type: z.array(z.object({ commission_type: z.enum(COMMISSION_TYPES), rate: z.number(), base_total: z.number(), earn_total: z.number() })),
      settlements: z.array(z.object({ period_start: z.string(), period_end: z.string(), amount: z.number() })),
    }),
  }),
});

export const referralSummaryStreaming = defineCall({
  method: 'GET',
  path: '/api/user/referral-summary-streaming',
  summary: 'What the referred broadcasters streamed in the range: broadcasters, streams, hours and the coins they were tipped',
  refusals: [403, 404],
  input: filtered({}),
  output: success({
    streaming: z.object({ broadcasters: z.number(), streams: z.number(), hours: z.number(), tip_coins: z.number() }),
  }),
});

export const referralLinkCreate = defineCall({
  method: 'POST',
  path: '/api/user/referral-link-create',
  summary: 'A new link for a campaign, in one of the programmes',
  refusals: [403, 409],
  input: z.strictObject({
    type: z.enum(REFERRAL_TYPES, { error: oneOf(REFERRAL_TYPES) }),
    campaign: optionalText(100).pipe(z.string().regex(/^[A-Za-z0-9_.-]+$/, MSG.referralCampaignShape).optional()),
  }).meta({ examples: [{ type: 'INFLUENCER', campaign: 'spring-2026' }] }),
  output: success({ link: referralLink }),
});

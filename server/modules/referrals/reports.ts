/** What the referral dashboard shows a referrer: summary, referred people, and the referred, commission and streaming summaries. */
import { sql, type SQL } from 'drizzle-orm';
import { COMMISSION_TYPE_OF, REFERRAL_TYPES, type ReferralType } from '../../../common/api/referrals';
import { coins } from '../../../common/rules/format';
import type { Db } from '../../platform/db/client';
import { people } from '../accounts';
import { tipFactsSql } from '../ledger';
import { streamingOf } from '../streams';
import { linkOf, type LinkView, type ReferralCodes } from './codes';
import type { ReferralSettlement } from './settlement';
import { referralAttributions, referralCodes, referralCommissions } from './tables';

export interface ReferralFilter {
  referrerId: number;
  /** One link's figures; all the referrer's links when absent. */
  codeId?: number;
  /** UTC days, both included; open-ended when absent. */
  from?: string;
  to?: string;
}

const dayStart = (day: string) => `${day}T00:00:00Z`;
const dayAfter = (day: string) => new Date(Date.parse(dayStart(day)) + 86_400_000).toISOString();
const dateFormatted = (date: Date) => new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' }).format(date);

export function createReferralReports(deps: { db: Db; codes: ReferralCodes; settlement: ReferralSettlement; rates: Record<ReferralType, number> }) {
  const { db, codes, settlement, rates } = deps;

  /** The referrer's attributions (alias a), of one link when asked. */
  const ofReferrer = (f: ReferralFilter) => sql`a.referrer_id = ${f.referrerId}${f.codeId === undefined ? sql`` : sql` and a.code_id = ${f.codeId}`}`;
  /** A time column within the filter's days. */
  const within = (column: SQL, f: ReferralFilter) => sql`${f.from ? sql`${column} >= ${dayStart(f.from)}::timestamptz` : sql`true`}
    and ${f.to ? sql`${column} < ${dayAfter(f.to)}::timestamptz` : sql`true`}`;
  /** The referrer's commission rows (alias rc) of the filter. */
  const commissionsOf = (f: ReferralFilter) => sql`rc.referrer_id = ${f.referrerId}${f.codeId === undefined ? sql`` : sql` and rc.code_id = ${f.codeId}`}
    and ${within(sql`rc.period_start`, f)}`;

  async function check(f: ReferralFilter) {
    if (f.codeId !== undefined) await codes.owned(f.referrerId, f.codeId);
  }

  const rateList = () => REFERRAL_TYPES.map((type) => ({ type, commission_type: COMMISSION_TYPE_OF[type], rate: rates[type] }));

  return {
    async summary(f: ReferralFilter, view: LinkView) {
      await check(f);
      const links = await codes.links(f.referrerId);
      const { rows: [last] } = await db.execute<{ period_start: string; earned: string }>(sql`
        select rc.period_start::text as period_start, sum(rc.earned) as earned from ${referralCommissions} rc
        where ${commissionsOf({ ...f, from: undefined, to: undefined })} and rc.transfer_id is not null
        group by rc.period_start order by rc.period_start desc limit 1`);
      const { rows: [count] } = await db.execute<{ n: string }>(sql`select count(*) as n from ${referralAttributions} a where ${ofReferrer(f)}`);
      const lastAmount = Number(last?.earned ?? 0);
      const pending = await settlement.pending(f.referrerId);
      return {
        links: links.map((row) => linkOf(row, view)),
        summary: {
          last_settlement: lastAmount,
          pending_settlement: pending,
          pending_settlement_amount_formatted: coins(pending),
          last_settlement_amount_formatted: coins(lastAmount),
          // The day the settled period began (a day by default), as the settlements list shows it.
          last_settlement_date_formatted: last ? dateFormatted(new Date(last.period_start)) : '',
          total_referral_count: Number(count?.n ?? 0),
          rates: rateList(),
        },
      };
    },

    async referredList(f: ReferralFilter & { offset: number; limit: number }) {
      await check(f);
      const { rows } = await db.execute<{ user_id: string; username: string; avatar: string | null; type: ReferralType; campaign: string | null; referred_at: string; base: string; earned: string; total: string }>(sql`
        select a.referred_id as user_id, ${people.username} as username, ${people.avatar} as avatar, c.type, c.campaign, a.referred_at::text as referred_at,
          coalesce(t.base, 0) as base, coalesce(t.earned, 0) as earned, count(*) over () as total
        from ${referralAttributions} a join ${referralCodes} c on c.id = a.code_id join ${people} on ${people.id} = a.referred_id
        left join lateral (select sum(rc.base) as base, sum(rc.earned) as earned from ${referralCommissions} rc
          where rc.referred_id = a.referred_id and ${commissionsOf(f)}) t on true
        where ${ofReferrer(f)}
        order by a.referred_at desc, a.referred_id desc limit ${f.limit} offset ${f.offset}`);
      return {
        referrals: rows.map((row) => ({
          user: { user_id: Number(row.user_id), avatar: row.avatar, username: row.username },
          type: row.type,
          campaign: row.campaign,
          referred_at: new Date(row.referred_at).toISOString(),
          commission: { base_total: Number(row.base), earn_total: Number(row.earned) },
        })),
        total_rows: rows.length > 0 ? Number(rows[0]!.total) : 0,
      };
    },

    async referred(f: ReferralFilter) {
      await check(f);
      const { rows: [totals] } = await db.execute<{ total: string; in_range: string; agent: string; influencer: string }>(sql`
        select count(*) as total, count(*) filter (where ${within(sql`a.referred_at`, f)}) as in_range,
          count(*) filter (where ${within(sql`a.referred_at`, f)} and c.type = 'AGENT') as agent,
          count(*) filter (where ${within(sql`a.referred_at`, f)} and c.type = 'INFLUENCER') as influencer
        from ${referralAttributions} a join ${referralCodes} c on c.id = a.code_id where ${ofReferrer(f)}`);
      const { rows: days } = await db.execute<{ day: string; n: string }>(sql`
        select (a.referred_at at time zone 'UTC')::date::text as day, count(*) as n from ${referralAttributions} a
        where ${ofReferrer(f)} and ${within(sql`a.referred_at`, f)} group by 1 order by 1`);
      return {
        referred: {
          total: Number(totals?.total ?? 0),
          in_range: Number(totals?.in_range ?? 0),
          by_type: { AGENT: Number(totals?.agent ?? 0), INFLUENCER: Number(totals?.influencer ?? 0) },
          by_date: days.map((row) => ({ date: row.day, count: Number(row.n) })),
        },
      };
    },

    async commission(f: ReferralFilter) {
      await check(f);
      const { rows: byType } = await db.execute<{ type: ReferralType; base: string; earned: string }>(sql`
        select rc.type, sum(rc.base) as base, sum(rc.earned) as earned from ${referralCommissions} rc where ${commissionsOf(f)} group by rc.type`);
      const { rows: settlements } = await db.execute<{ period_start: string; period_end: string; amount: string }>(sql`
        select rc.period_start::text as period_start, s.period_end::text as period_end, sum(rc.earned) as amount
        from ${referralCommissions} rc join referral_settlements s on s.period_start = rc.period_start
        where ${commissionsOf(f)} group by rc.period_start, s.period_end having sum(rc.earned) > 0 order by rc.period_start desc limit 50`);
      const of = (type: ReferralType) => byType.find((row) => row.type === type);
      return {
        commission: {
          base_total: byType.reduce((sum, row) => sum + Number(row.base), 0),
          earn_total: byType.reduce((sum, row) => sum + Number(row.earned), 0),
          by_type: REFERRAL_TYPES.map((type) => ({
            commission_type: COMMISSION_TYPE_OF[type], rate: rates[type], base_total: Number(of(type)?.base ?? 0), earn_total: Number(of(type)?.earned ?? 0),
          })),
          settlements: settlements.map((row) => ({ period_start: new Date(row.period_start).toISOString(), period_end: new Date(row.period_end).toISOString(), amount: Number(row.amount) })),
        },
      };
    },

    async streaming(f: ReferralFilter) {
      await check(f);
      const referred = sql`select a.referred_id from ${referralAttributions} a where ${ofReferrer(f)}`;
      const from = new Date(f.from ? dayStart(f.from) : 0);
      const to = new Date(f.to ? dayAfter(f.to) : '9999-12-31T00:00:00Z');
      const streamed = await streamingOf(db, referred, from, to);
      const { rows: [tips] } = await db.execute<{ coins: string | null }>(sql`select sum(f.coins) as coins from (${tipFactsSql}) f
        where f.creator_id in (${referred}) and f.at >= ${from.toISOString()}::timestamptz and f.at < ${to.toISOString()}::timestamptz`);
      return {
        streaming: { broadcasters: streamed.broadcasters, streams: streamed.streams, hours: Math.round((streamed.seconds / 3600) * 10) / 10, tip_coins: Number(tips?.coins ?? 0) },
      };
    },
  };
}

export type ReferralReports = ReturnType<typeof createReferralReports>;

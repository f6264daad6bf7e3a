/**
 * Answers of `user-analytics` from the rollups alone, so a creator with years of data costs what a new
 * one does: totals and daily series read one row per day of the range; Top tippers reads the all-time
 * ranking index for All time, else whole months from the monthly rows and only the range's edge days
 * from the daily rows; the stream lists read the creator's per-stream days of the range.
 */
import { sql } from 'drizzle-orm';
import { DAILY_EVENTS, TOTAL_EVENTS, type AnalyticsEvent, type AnalyticsResult, type TopStream, type TopTipper } from '../../../common/api/analytics';
import { ANALYTICS } from '../../../common/constants';
import type { Db } from '../../platform/db/client';
import { people } from '../accounts';
import type { Ledger } from '../ledger';
import type { GoalsService } from '../goals';
import { likesOfStreamsStarted, streamCards, type StreamViewing } from '../streams';
import { analyticsDays, analyticsStreamDays, analyticsTipperDays, analyticsTipperMonths, analyticsTipperTotals } from './tables';
import { addDays, daysOf, monthsWithin } from './days';

export interface AnalyticsQuery {
  events: AnalyticsEvent[];
  /** UTC days, YYYY-MM-DD, both included. */
  from: string;
  to: string;
  offset: number;
  limit: number;
}

interface Page<T> {
  list: T[];
  total: number;
}

/**
 * The days a series answers: the range, from the creator's first day with figures (All time starts in
 * 2016; earlier days are zeros by construction) up to today (later days cannot have any).
 */
export function seriesDays(firstDay: string | null, query: { from: string; to: string }, today: string): string[] {
  if (firstDay === null) return [];
  const from = query.from > firstDay ? query.from : firstDay;
  const to = query.to < today ? query.to : today;
  return from <= to ? daysOf(from, to) : [];
}

export function createAnalyticsReads(deps: {
  db: Db;
  ledger: Pick<Ledger, 'earningsWithin'>;
  streamViewing: Pick<StreamViewing, 'realtimeLikesOn'>;
  goals: Pick<GoalsService, 'goalCounts'>;
}) {
  const { db } = deps;
  /** The creator's first day in the rollups (the key's first entry). */
  async function firstDayOf(creatorId: number): Promise<string | null> {
    const [row] = await db.select({ day: analyticsDays.day }).from(analyticsDays)
      .where(sql`${analyticsDays.creatorId} = ${creatorId}`).orderBy(analyticsDays.day).limit(1);
    return row?.day ?? null;
  }

  async function dayRows(creatorId: number, from: string, to: string) {
    return db.select({ day: analyticsDays.day, tipCoins: analyticsDays.tipCoins, views: analyticsDays.views, followers: analyticsDays.followers })
      .from(analyticsDays)
      .where(sql`${analyticsDays.creatorId} = ${creatorId} and ${analyticsDays.day} between ${from} and ${to}`)
      .orderBy(analyticsDays.day);
  }

  async function topTippers(creatorId: number, query: AnalyticsQuery, today: string): Promise<Page<TopTipper>> {
    const allTime = query.from <= ANALYTICS.firstDay && query.to >= today;
    const ranked = allTime
      ? sql`select tipper_id, coins from ${analyticsTipperTotals} where creator_id = ${creatorId} and coins > 0`
      : tippersWithin(creatorId, query.from, query.to);
    // The page is ranked first; only its tippers are looked up.
    const { rows } = await db.execute<{ tipper_id: string; coins: string; total: string; username: string | null; avatar: string | null }>(sql`
      select r.tipper_id, r.coins, r.total, ${people.username} as username, ${people.avatar} as avatar
      from (select tipper_id, coins, count(*) over () as total from (${ranked}) ranked
        order by coins desc, tipper_id limit ${query.limit} offset ${query.offset}) r
      left join ${people} on ${people.id} = r.tipper_id
      order by r.coins desc, r.tipper_id`);
    const total = rows.length > 0 ? Number(rows[0]!.total) : await countRanked(ranked);
    return {
      total,
      list: rows.map((row) => ({ user_id: Number(row.tipper_id), sname: row.username ?? '', thumb_url: row.avatar ?? '', tip_coin: Number(row.coins) })),
    };
  }

  async function countRanked(ranked: ReturnType<typeof sql>): Promise<number> {
    const { rows } = await db.execute<{ n: string }>(sql`select count(*) as n from (${ranked}) r`);
    return Number(rows[0]?.n ?? 0);
  }

  /** Coins per tipper over [from, to]: whole months from the monthly rows, the rest from the daily rows. */
  function tippersWithin(creatorId: number, from: string, to: string) {
    const months = monthsWithin(from, to);
    const parts = months
      ? sql`select tipper_id, coins from ${analyticsTipperMonths} where creator_id = ${creatorId} and month >= ${months.first} and month < ${months.end}
        union all select tipper_id, coins from ${analyticsTipperDays} where creator_id = ${creatorId}
          and ((day >= ${from} and day < ${months.first}) or (day >= ${months.end} and day <= ${to}))`
      : sql`select tipper_id, coins from ${analyticsTipperDays} where creator_id = ${creatorId} and day between ${from} and ${to}`;
    return sql`select tipper_id, sum(coins) as coins from (${parts}) t group by tipper_id having sum(coins) > 0`;
  }

  async function topStreams(creatorId: number, query: AnalyticsQuery, by: 'coins' | 'views'): Promise<Page<TopStream>> {
    const order = by === 'coins' ? sql`coins desc, views desc` : sql`views desc, coins desc`;
    const { rows } = await db.execute<{ stream_id: string; coins: string; views: string; total: string }>(sql`
      select stream_id, sum(coins) as coins, sum(views) as views, count(*) over () as total from ${analyticsStreamDays}
      where creator_id = ${creatorId} and day between ${query.from} and ${query.to}
      group by stream_id having sum(${sql.raw(by)}) > 0
      order by ${order}, stream_id desc limit ${query.limit} offset ${query.offset}`);
    const ids = rows.map((row) => Number(row.stream_id));
    const [cards, goals] = await Promise.all([streamCards(db, creatorId, ids), deps.goals.goalCounts(ids)]);
    return {
      total: rows.length > 0 ? Number(rows[0]!.total) : 0,
      list: rows.flatMap((row) => {
        const card = cards.get(Number(row.stream_id));
        if (!card) return [];
        const goal = goals.get(card.streamId) ?? { set: 0, reached: 0 };
        return [{
          stream_id: card.streamId, title: card.title, thumb_url: card.thumbUrl, likes: card.likes, views: card.views,
          tip_coin: Number(row.coins), range_views: Number(row.views), goals_set: goal.set, goals_reached: goal.reached,
        }];
      }),
    };
  }

  return {
    /** The events asked for, for one creator and range; `today` is the current UTC day. */
    async answer(creatorId: number, query: AnalyticsQuery, today: string): Promise<AnalyticsResult> {
      const wants = new Set(query.events);
      const result: AnalyticsResult = {};
      const [rangeStart, rangeEnd] = [new Date(`${query.from}T00:00:00Z`), new Date(`${addDays(query.to, 1)}T00:00:00Z`)];
      const needsDays = TOTAL_EVENTS.some((e) => e !== 'TOTAL_STREAM_LIKE_COUNT' && e !== 'TOTAL_EARNINGS' && wants.has(e)) || DAILY_EVENTS.some((e) => wants.has(e));
      const days = needsDays ? await dayRows(creatorId, query.from, query.to) : [];
      const sum = (pick: (row: (typeof days)[number]) => number) => days.reduce((total, row) => total + pick(row), 0);
      if (wants.has('TOTAL_TIP_COUNT')) result.TOTAL_TIP_COUNT = sum((row) => row.tipCoins);
      if (wants.has('TOTAL_STREAM_VIEW_COUNT')) result.TOTAL_STREAM_VIEW_COUNT = sum((row) => row.views);
      if (wants.has('TOTAL_FOLLOWERS_COUNT')) result.TOTAL_FOLLOWERS_COUNT = sum((row) => row.followers);
      if (wants.has('TOTAL_STREAM_LIKE_COUNT')) {
        result.TOTAL_STREAM_LIKE_COUNT = await likesOfStreamsStarted(db, creatorId, rangeStart, rangeEnd, deps.streamViewing.realtimeLikesOn);
      }
      // Read from the books themselves: what reached the creator's wallet, every kind of earning (decision 0046).
      if (wants.has('TOTAL_EARNINGS')) result.TOTAL_EARNINGS = await deps.ledger.earningsWithin(creatorId, rangeStart, rangeEnd);
      if (DAILY_EVENTS.some((e) => wants.has(e))) {
        const byDay = new Map(days.map((row) => [row.day, row]));
        const series = seriesDays(await firstDayOf(creatorId), query, today).map((day) => ({ day, row: byDay.get(day) }));
        if (wants.has('TOTAL_TIP_BY_DATE')) result.TOTAL_TIP_BY_DATE = series.map(({ day, row }) => ({ date: day, totalTip: row?.tipCoins ?? 0 }));
        if (wants.has('TOTAL_STREAM_VIEWS_BY_DATE')) result.TOTAL_STREAM_VIEWS_BY_DATE = series.map(({ day, row }) => ({ date: day, totalStreamViews: row?.views ?? 0 }));
        if (wants.has('TOTAL_FOLLOWERS_BY_DATE')) result.TOTAL_FOLLOWERS_BY_DATE = series.map(({ day, row }) => ({ date: day, totalFollowers: row?.followers ?? 0 }));
      }
      if (wants.has('TOP_TIPPERS')) result.TOP_TIPPERS = await topTippers(creatorId, query, today);
      if (wants.has('TOP_STREAMS_BY_TIP')) result.TOP_STREAMS_BY_TIP = await topStreams(creatorId, query, 'coins');
      if (wants.has('TOP_STREAM_BY_VIEW')) result.TOP_STREAM_BY_VIEW = await topStreams(creatorId, query, 'views');
      return result;
    },
  };
}

export type AnalyticsReads = ReturnType<typeof createAnalyticsReads>;

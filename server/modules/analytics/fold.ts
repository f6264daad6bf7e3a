/**
 * The fold (decision 0022): facts stamped in [folded_until, now - lag) — tips from the books, first views,
 * new follows — are added into the per-creator-per-day rollups, and `folded_until` moves on, all in one
 * transaction. A crash rolls the whole step back; a second instance finds the fold row locked and skips.
 * Facts carry the time their short transaction started, so after `lag` every fact of a window has
 * committed: nothing is read twice or missed. A backlog (a first start on old data) is folded a chunk of
 * days per transaction.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../platform/db/client';
import { tipFactsSql } from '../ledger';
import { followFactsSql } from '../social';
import { viewFactsSql } from '../streams';
import { analyticsDays, analyticsFold, analyticsStreamDays, analyticsTipperDays, analyticsTipperMonths, analyticsTipperTotals } from './tables';

const DAY_MS = 86_400_000;
/** The most days of facts one transaction folds. */
const CHUNK_DAYS = 31;
/** The most chunks one run folds (the job comes back for the rest). */
const CHUNKS_PER_RUN = 24;

const dayOf = (at: SQL) => sql`(${at} at time zone 'UTC')::date`;

export interface FoldOptions {
  db: Db;
  /** How long after its time stamp a fact is surely committed. */
  lagMs: number;
}

export function createFold({ db, lagMs }: FoldOptions) {
  /** Facts of one source stamped in [from, to). */
  const within = (facts: SQL, from: Date, to: Date) =>
    sql`(${facts}) f where f.at >= ${from.toISOString()}::timestamptz and f.at < ${to.toISOString()}::timestamptz`;

  async function foldWindow(tx: Executor, from: Date, to: Date) {
    const tips = within(tipFactsSql, from, to);
    const views = within(viewFactsSql, from, to);
    const follows = within(followFactsSql, from, to);
    await tx.execute(sql`insert into ${analyticsDays} (creator_id, day, tip_coins, tips, views, followers)
      select creator_id, day, sum(coins), sum(tips), sum(views), sum(followers) from (
        select creator_id, ${dayOf(sql`f.at`)} as day, coins, 1 as tips, 0 as views, 0 as followers from ${tips}
        union all select creator_id, ${dayOf(sql`f.at`)}, 0, 0, 1, 0 from ${views}
        union all select creator_id, ${dayOf(sql`f.at`)}, 0, 0, 0, 1 from ${follows}
      ) facts group by creator_id, day
      on conflict (creator_id, day) do update set tip_coins = analytics_days.tip_coins + excluded.tip_coins,
        tips = analytics_days.tips + excluded.tips, views = analytics_days.views + excluded.views,
        followers = analytics_days.followers + excluded.followers`);
    await tx.execute(sql`insert into ${analyticsTipperDays} (creator_id, day, tipper_id, coins)
      select creator_id, ${dayOf(sql`f.at`)}, tipper_id, sum(coins) from ${tips} and f.tipper_id is not null group by 1, 2, 3
      on conflict (creator_id, day, tipper_id) do update set coins = analytics_tipper_days.coins + excluded.coins`);
    await tx.execute(sql`insert into ${analyticsTipperMonths} (creator_id, month, tipper_id, coins)
      select creator_id, date_trunc('month', f.at at time zone 'UTC')::date, tipper_id, sum(coins) from ${tips} and f.tipper_id is not null group by 1, 2, 3
      on conflict (creator_id, month, tipper_id) do update set coins = analytics_tipper_months.coins + excluded.coins`);
    await tx.execute(sql`insert into ${analyticsTipperTotals} (creator_id, tipper_id, coins)
      select creator_id, tipper_id, sum(coins) from ${tips} and f.tipper_id is not null group by 1, 2
      on conflict (creator_id, tipper_id) do update set coins = analytics_tipper_totals.coins + excluded.coins`);
    await tx.execute(sql`insert into ${analyticsStreamDays} (creator_id, day, stream_id, coins, views)
      select creator_id, day, stream_id, sum(coins), sum(views) from (
        select creator_id, ${dayOf(sql`f.at`)} as day, stream_id, coins, 0 as views from ${tips} and f.stream_id is not null
        union all select creator_id, ${dayOf(sql`f.at`)}, stream_id, 0, 1 from ${views}
      ) facts group by creator_id, day, stream_id
      on conflict (creator_id, day, stream_id) do update set coins = analytics_stream_days.coins + excluded.coins,
        views = analytics_stream_days.views + excluded.views`);
  }

  /** The earliest fact there is, for a first fold (each source's time index answers its minimum). */
  async function firstFactAt(tx: Executor): Promise<Date | null> {
    const { rows } = await tx.execute<{ at: string | null }>(sql`select least(
      (select min(f.at) from (${tipFactsSql}) f), (select min(f.at) from (${viewFactsSql}) f), (select min(f.at) from (${followFactsSql}) f))::text as at`);
    return rows[0]?.at ? new Date(rows[0].at) : null;
  }

  /** One chunk in one transaction: whether it folded one, and whether more is due. */
  async function step(now: Date): Promise<{ folded: boolean; more: boolean }> {
    const until = new Date(now.getTime() - lagMs);
    return db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ folded_until: string | null }>(
        sql`select folded_until::text from ${analyticsFold} where id = 1 for update skip locked`);
      const state = rows[0];
      if (!state) return { folded: false, more: false };
      const from = state.folded_until ? new Date(state.folded_until) : await firstFactAt(tx);
      if (from === null) {
        await tx.execute(sql`update ${analyticsFold} set folded_until = ${until.toISOString()}::timestamptz where id = 1`);
        return { folded: false, more: false };
      }
      if (from >= until) return { folded: false, more: false };
      const to = new Date(Math.min(until.getTime(), from.getTime() + CHUNK_DAYS * DAY_MS));
      await foldWindow(tx, from, to);
      await tx.execute(sql`update ${analyticsFold} set folded_until = ${to.toISOString()}::timestamptz where id = 1`);
      return { folded: true, more: to < until };
    });
  }

  return {
    /** Folds what is due; answers how many chunks it folded (none when another instance holds the fold). */
    async run(now: Date = new Date()): Promise<number> {
      let chunks = 0;
      for (let more = true; more && chunks < CHUNKS_PER_RUN;) {
        const outcome = await step(now);
        if (outcome.folded) chunks += 1;
        more = outcome.more;
      }
      return chunks;
    },
    /**
     * Empties the rollups to fold everything again from the first fact: after history was brought in with
     * times the fold had passed already (demo data, an import). Waits for a fold under way.
     */
    async rebuild(): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select id from ${analyticsFold} where id = 1 for update`);
        for (const table of [analyticsDays, analyticsTipperDays, analyticsTipperMonths, analyticsTipperTotals, analyticsStreamDays]) await tx.delete(table);
        await tx.execute(sql`update ${analyticsFold} set folded_until = null where id = 1`);
      });
    },

    /** Facts before this instant are in the rollups. */
    async foldedUntil(exec: Executor = db): Promise<Date | null> {
      const { rows } = await exec.execute<{ folded_until: string | null }>(sql`select folded_until::text from ${analyticsFold} where id = 1`);
      return rows[0]?.folded_until ? new Date(rows[0].folded_until) : null;
    },
  };
}

export type Fold = ReturnType<typeof createFold>;

/**
 * What other modules read from the books: a viewer's spend on a stream, a stream's tips and top
 * tippers, a user's earnings, statement and promotion. Only the ledger knows its tables; these are
 * the reads it answers (the `*Sql` ones as SQL for statements that must stay one round trip).
 */
import { and, asc, count, desc, eq, gte, inArray, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/client';
import { EARNING_KINDS } from '../../../common/rules/transfer-kinds';
import { ledgerAccounts, ledgerEntries, ledgerTransfers, type Currency, type TransferKind } from './tables';


const tipsOn = (streamId: number) =>
  and(eq(ledgerTransfers.streamId, streamId), eq(ledgerTransfers.kind, 'tip'), eq(ledgerTransfers.currency, 'CON'));

/** A tip as the chat shows it: who, how much, when, what they wrote, the menu's action it bought. */
type TipLineRow = { id: number; userId: number | null; amount: number; createdAt: Date; message: string | null; menuItem: string | null };
const tipLines = (rows: TipLineRow[]) => rows.flatMap((r) => (r.userId === null ? [] : [{ ...r, userId: r.userId }]));

/** Coins this user tipped on this stream, as SQL (one statement with the tip that reads it). */
export const spendOnStreamSql = (streamId: number | SQL, userId: number | SQL) =>
  sql`select coalesce(sum(amount), 0) from ${ledgerTransfers}
    where stream_id = ${streamId} and from_user_id = ${userId} and kind = 'tip' and currency = 'CON'`;

/** Coins tipped on this stream by everyone, as SQL (tip goals count them). */
export const tippedOnStreamSql = (streamId: number | SQL) =>
  sql`select coalesce(sum(amount), 0) from ${ledgerTransfers} where stream_id = ${streamId} and kind = 'tip' and currency = 'CON'`;

/** The user's coin wallet row (shard 0) balance, as SQL. */
export const walletBalanceSql = (userId: number | SQL, currency: Currency) =>
  sql`select balance from ${ledgerAccounts} where user_id = ${userId} and currency = ${currency} and shard = 0`;

/** Every currency's balance of the user, receiving shards included, as one JSON object in SQL. */
export const balancesJsonSql = (userId: number | SQL) =>
  sql`select json_object_agg(currency, total) from (
    select currency, sum(balance) as total from ${ledgerAccounts} where user_id = ${userId} group by currency) w`;

/** True (as SQL) when the user holds impressions to spend: their streams rank as promoted. */
export const holdsImpressionsSql = (userId: SQL | unknown) =>
  sql<boolean>`exists (select 1 from ${ledgerAccounts} where ${ledgerAccounts.userId} = ${userId}
    and ${ledgerAccounts.currency} = 'IMP' and ${ledgerAccounts.balance} > 0)`;

export function ledgerReads(db: Executor) {
  const tipLineRows = () => db.select({
    id: ledgerTransfers.id, userId: ledgerTransfers.fromUserId, amount: ledgerTransfers.amount, createdAt: ledgerTransfers.createdAt,
    message: sql<string | null>`${ledgerTransfers.details}->>'message'`,
    menuItem: sql<string | null>`${ledgerTransfers.details}->>'menu_item'`,
  }).from(ledgerTransfers);

  /**
   * Credits of earning transfers paid into the user's own coin wallet (net of fees), within `extra`:
   * their sum, and the part of it since `since`.
   */
  const earned = async (userId: number, since: Date | null, ...extra: SQL[]) => {
    const sinceSum = since
      ? sql<string | number>`coalesce(sum(${ledgerEntries.amount}) filter (where ${ledgerTransfers.createdAt} >= ${since.toISOString()}::timestamptz), 0)`
      : sql<string | number>`0`;
    const [row] = await db.select({ total: sql<string | number>`coalesce(sum(${ledgerEntries.amount}), 0)`, since: sinceSum }).from(ledgerEntries)
      .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(and(
        eq(ledgerAccounts.userId, userId),
        eq(ledgerAccounts.currency, 'CON'),
        eq(ledgerTransfers.toUserId, userId),
        inArray(ledgerTransfers.kind, [...EARNING_KINDS]),
        gte(ledgerEntries.amount, 0),
        ...extra,
      ));
    return { total: Number(row?.total ?? 0), since: Number(row?.since ?? 0) };
  };

  return {
    /** Coins this user tipped on this stream (the pay wall counts these). */
    async spendOnStream(streamId: number, userId: number | null, exec: Executor = db): Promise<number> {
      if (userId === null) return 0;
      const [row] = await exec.select({ n: sql<string | number>`coalesce(sum(${ledgerTransfers.amount}), 0)` }).from(ledgerTransfers)
        .where(and(tipsOn(streamId), eq(ledgerTransfers.fromUserId, userId)));
      return Number(row?.n ?? 0);
    },

    /** The stream's last tips, newest first (ledger_transfers_stream_tips_idx: stream, time). */
    async tipsOnStream(streamId: number, limit: number) {
      return tipLines(await tipLineRows().where(tipsOn(streamId)).orderBy(desc(ledgerTransfers.createdAt), desc(ledgerTransfers.id)).limit(limit));
    },

    /** The stream's tips from `since`, oldest first, at most `limit` (a replay's chat, played in time). */
    async tipsOnStreamFrom(streamId: number, since: Date, limit: number) {
      return tipLines(await tipLineRows().where(and(tipsOn(streamId), gte(ledgerTransfers.createdAt, since)))
        .orderBy(asc(ledgerTransfers.createdAt), asc(ledgerTransfers.id)).limit(limit));
    },

    /** The stream's tips in total: how many, the coins tipped, and what reached the owner's wallet after fees. */
    async tipTotalsOnStream(streamId: number, ownerId: number) {
      const credited = sql<string | number>`coalesce((select sum(${ledgerEntries.amount}) from ${ledgerEntries}
        inner join ${ledgerAccounts} on ${ledgerAccounts.id} = ${ledgerEntries.accountId}
        where ${ledgerEntries.transferId} = ${ledgerTransfers.id} and ${ledgerAccounts.userId} = ${ownerId}), 0)`;
      const [row] = await db.select({
        tips: count(),
        gross: sql<string | number>`coalesce(sum(${ledgerTransfers.amount}), 0)`,
        net: sql<string | number>`coalesce(sum(${credited}), 0)`,
      }).from(ledgerTransfers).where(and(tipsOn(streamId), eq(ledgerTransfers.toUserId, ownerId)));
      return { tips: Number(row?.tips ?? 0), gross: Number(row?.gross ?? 0), net: Number(row?.net ?? 0) };
    },

    /** Gross amounts of one kind received by a user (from `since` when given): earnings summaries. */
    async receivedTotal(userId: number, kind: TransferKind, since?: Date): Promise<number> {
      const [row] = await db.select({ n: sql<string | number>`coalesce(sum(${ledgerTransfers.amount}), 0)` }).from(ledgerTransfers)
        .where(and(eq(ledgerTransfers.toUserId, userId), eq(ledgerTransfers.kind, kind), since ? gte(ledgerTransfers.createdAt, since) : undefined));
      return Number(row?.n ?? 0);
    },

    /** The transfer a key moved money with, if any (a retried request finds its first outcome). */
    async transferIdByKey(idempotencyKey: string, exec: Executor = db): Promise<number | null> {
      const [row] = await exec.select({ id: ledgerTransfers.id }).from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, idempotencyKey));
      return row ? Number(row.id) : null;
    },

    /** A tip's stream and amount, to answer a retried key. */
    async transferById(transferId: number) {
      const [row] = await db.select({ streamId: ledgerTransfers.streamId, amount: ledgerTransfers.amount, details: ledgerTransfers.details })
        .from(ledgerTransfers).where(eq(ledgerTransfers.id, transferId));
      return row ? { streamId: row.streamId === null ? null : Number(row.streamId), amount: Number(row.amount), details: (row.details ?? {}) as Record<string, unknown> } : null;
    },

    /** The transfer a key wrote, if any: its amount and details (a dispute's take-back, to undo it). */
    async transferByKey(idempotencyKey: string) {
      const [row] = await db.select({ amount: ledgerTransfers.amount, details: ledgerTransfers.details })
        .from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, idempotencyKey));
      return row ? { amount: Number(row.amount), details: (row.details ?? {}) as Record<string, unknown> } : null;
    },

    /**
     * The refunds and disputes that took coins back from these users' wallets (kind `refund` keyed to a
     * deposit), newest first: for the console's queue of held accounts.
     */
    async takeBacksOf(userIds: number[]) {
      if (userIds.length === 0) return [];
      const rows = await db.select({ fromUserId: ledgerTransfers.fromUserId, amount: ledgerTransfers.amount, currency: ledgerTransfers.currency, details: ledgerTransfers.details, createdAt: ledgerTransfers.createdAt })
        .from(ledgerTransfers)
        .where(and(eq(ledgerTransfers.kind, 'refund'), inArray(ledgerTransfers.fromUserId, userIds), sql`${ledgerTransfers.details} ? 'payment_id'`))
        .orderBy(desc(ledgerTransfers.id));
      return rows.map((r) => ({ userId: Number(r.fromUserId), cents: Number(r.amount), currency: r.currency, details: (r.details ?? {}) as Record<string, unknown>, createdAt: r.createdAt }));
    },

    /** The stream's top tippers, coins summed, most first. */
    async topTippers(streamId: number, limit: number) {
      const total = sql<string | number>`sum(${ledgerTransfers.amount})`;
      const rows = await db.select({ userId: ledgerTransfers.fromUserId, total }).from(ledgerTransfers)
        .where(tipsOn(streamId))
        .groupBy(ledgerTransfers.fromUserId)
        .orderBy(desc(total), ledgerTransfers.fromUserId)
        .limit(limit);
      return rows.map((r) => ({ userId: Number(r.userId), total: Number(r.total) }));
    },

    /** When the user's biggest tip was received (`to`) or sent (`from`); null without one. */
    async biggestTipAt(userId: number, side: 'to' | 'from'): Promise<Date | null> {
      const column = side === 'to' ? ledgerTransfers.toUserId : ledgerTransfers.fromUserId;
      const [row] = await db.select({ at: ledgerTransfers.createdAt }).from(ledgerTransfers)
        .where(and(eq(column, userId), eq(ledgerTransfers.kind, 'tip')))
        .orderBy(desc(ledgerTransfers.amount), desc(ledgerTransfers.id)).limit(1);
      return row ? new Date(row.at) : null;
    },

    /**
     * Coins that reached the user's wallet from earning transfers paid to them (net of fees) in [from, to):
     * tips, post sales, subscriptions, call fees, toy tips, ad and referral commissions.
     */
    async earningsWithin(userId: number, from: Date, to: Date): Promise<number> {
      return (await earned(userId, null, gte(ledgerTransfers.createdAt, from), lt(ledgerTransfers.createdAt, to))).total;
    },

    /** Coins that reached the user's wallet from earning transfers paid to them (net of fees): all time and since `since`. */
    async earnings(userId: number, since: Date) {
      return earned(userId, since);
    },

    /**
     * The user's coin wallet over [from, to) for monthly statements (decision 0062), read in one statement
     * so the figures are of one moment: the balance before `from`, and the wallet's entries summed per UTC
     * month and kind (sweeps between the user's own rows left out). `earned` rows are earning transfers
     * paid to the user, with the platform's fee their legs put into `fees`; every other row is the kind's
     * credits and debits, whoever paid (a payout, coins bought, coins spent, a refund).
     */
    async walletMonths(userId: number, from: Date, to: Date) {
      const earning = sql.raw(EARNING_KINDS.map((kind) => `'${kind}'`).join(', '));
      const mine = sql`from ${ledgerEntries} e join ${ledgerAccounts} a on a.id = e.account_id join ${ledgerTransfers} t on t.id = e.transfer_id
        where a.user_id = ${userId} and a.currency = 'CON'`;
      const earned = sql`(t.kind in (${earning}) and t.to_user_id = ${userId} and e.amount > 0)`;
      // Only what went into `fees`: a commission paid out of the fees account took no fee from its payee.
      const fee = sql`coalesce((select sum(fe.amount) from ${ledgerEntries} fe join ${ledgerAccounts} fa on fa.id = fe.account_id
        where fe.transfer_id = t.id and fa.system = 'fees' and fe.amount > 0), 0)`;
      const result = await db.execute(sql`with moves as (
          select to_char(t.created_at at time zone 'UTC', 'YYYY-MM') as month, t.kind, ${earned} as earned, count(*) as transfers,
            coalesce(sum(e.amount) filter (where e.amount > 0), 0) as credits,
            coalesce(sum(-e.amount) filter (where e.amount < 0), 0) as debits,
            coalesce(sum(case when ${earned} then ${fee} else 0 end), 0) as fees
          ${mine} and t.kind <> 'sweep' and t.created_at >= ${from.toISOString()}::timestamptz and t.created_at < ${to.toISOString()}::timestamptz
          group by 1, 2, 3)
        select (select coalesce(sum(e.amount), 0) ${mine} and t.created_at < ${from.toISOString()}::timestamptz) as opening,
          (select json_agg(json_build_array(month, kind, earned, transfers, credits, debits, fees) order by month, kind) from moves) as moves`);
      const row = result.rows[0] as { opening: string | number; moves: Array<[string, TransferKind, boolean, number, number, number, number]> | null };
      return {
        opening: Number(row.opening),
        moves: (row.moves ?? []).map(([month, kind, isEarned, transfers, credits, debits, fees]) => ({
          month, kind, earned: isEarned, transfers: Number(transfers), credits: Number(credits), debits: Number(debits), fees: Number(fees),
        })),
      };
    },

    /** The user's statement: one line per transfer and currency, with the signed change to their wallet and the other party. */
    async statement(userId: number, page: { offset: number; limit: number }) {
      // A sweep moves coins between the user's own rows (decision 0012): not a line of their history.
      const mine = and(eq(ledgerAccounts.userId, userId), ne(ledgerTransfers.kind, 'sweep'));
      const entries = () => db.select({ n: count() }).from(ledgerEntries)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
        .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId));
      const [totalRow] = await entries().where(mine);
      // Entries of one transfer on one wallet are netted by the ledger, so each line is one entry.
      const other = sql<number | string | null>`case when ${ledgerTransfers.fromUserId} = ${userId} then ${ledgerTransfers.toUserId} else ${ledgerTransfers.fromUserId} end`;
      const rows = await db
        .select({
          transferId: ledgerTransfers.id,
          kind: ledgerTransfers.kind,
          amount: ledgerEntries.amount,
          currency: ledgerAccounts.currency,
          streamId: ledgerTransfers.streamId,
          createdAt: ledgerTransfers.createdAt,
          otherId: other,
          paymentReference: sql<string | null>`coalesce(${ledgerTransfers.details}->>'payment_reference', ${ledgerTransfers.details}->>'refund_reference')`,
        })
        .from(ledgerEntries)
        .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
        .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
        .where(mine)
        .orderBy(desc(ledgerTransfers.id), asc(ledgerAccounts.currency))
        .offset(page.offset)
        .limit(page.limit);
      return {
        total: Number(totalRow?.n ?? 0),
        lines: rows.map((r) => ({
          transferId: Number(r.transferId),
          kind: r.kind,
          amount: Number(r.amount),
          currency: r.currency,
          streamId: r.streamId === null ? null : Number(r.streamId),
          createdAt: new Date(r.createdAt),
          otherId: r.otherId === null || Number(r.otherId) === userId ? null : Number(r.otherId),
          /** A deposit's or a refund's reference at the payment processor. */
          paymentReference: r.paymentReference ?? null,
        })),
      };
    },
  };
}

/**
 * Tips as facts (a subquery): `creator_id` was tipped `coins` by `tipper_id` on `stream_id` at `at`
 * (transfer `transfer_id`). Transfers are written once, each in one short transaction stamped with its start.
 */
export const tipFactsSql = sql`select id as transfer_id, to_user_id as creator_id, from_user_id as tipper_id, stream_id, amount as coins, created_at as at
  from ${ledgerTransfers} where kind = 'tip' and currency = 'CON' and to_user_id is not null`;

/** Kinds one user pays another for (the platform's fee, when it takes one, goes to the `fees` account). */
const PAYMENT_KINDS: TransferKind[] = ['tip', 'post_purchase', 'subscription', 'meeting_fee', 'toy_tip', 'show_minute', 'message_unlock'];
const paymentKinds = sql.raw(PAYMENT_KINDS.map((kind) => `'${kind}'`).join(', '));
/** The platform's fee a transfer `t` actually took: what its legs put into (or, for a refund, took from) the fees account. */
const feeTakenSql = sql`coalesce((select sum(e.amount) from ${ledgerEntries} e join ${ledgerAccounts} a on a.id = e.account_id
  where e.transfer_id = t.id and a.system = 'fees'), 0)`;

/**
 * Coins paid between users as facts (a subquery): `payer_id` paid `payee_id` `coins` at `at`, of which the
 * platform took `fee` (from the ledger's own legs, so it is the fee actually taken, whatever the rate
 * was). A refund is the payment undone: the same payer and payee, coins and fee negative. Each branch
 * keeps its plain columns, so both users' indexes serve a filter on either side.
 */
export const paidActivitySql = sql`select t.from_user_id as payer_id, t.to_user_id as payee_id, t.amount as coins, ${feeTakenSql} as fee, t.created_at as at
    from ${ledgerTransfers} t where t.kind in (${paymentKinds}) and t.currency = 'CON'
  union all
  select t.to_user_id as payer_id, t.from_user_id as payee_id, -t.amount as coins, ${feeTakenSql} as fee, t.created_at as at
    from ${ledgerTransfers} t where t.kind = 'refund' and t.currency = 'CON' and t.from_user_id is not null and t.to_user_id is not null`;

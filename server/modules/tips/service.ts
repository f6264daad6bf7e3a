/**
 * Tips on streams (spec part 1 §2 Tip selector, §4; part 2 §7, §8), supporters and earnings. A tip is
 * one ledger transfer (one SQL statement, idempotent by key); its TIP message is published after it
 * committed, and only by the request that moved the coins (ARCHITECTURE §5, §6).
 */
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { shortNumber } from '../../../common/rules/format';
import type { RealtimeMessage } from '../../../common/realtime';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { AppError, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../platform/http/errors';
import { takeTokenSql } from '../../platform/throttle';
import { users } from '../accounts/tables';
import type { AccountsService } from '../accounts/service';
import { accountKey, InsufficientFunds, receivingShard, type Ledger } from '../ledger/service';
import { CURRENCIES, ledgerAccounts, ledgerEntries, ledgerTransfers, type Currency, type TransferKind } from '../ledger/tables';
import { mayActOnAnyStream, viewerSpendOn, type StreamsService, type Viewer } from '../streams/service';
import { streamBans, streams as streamsTable } from '../streams/tables';
import { tipMessage, type Tipper } from './tip-message';

export const TIP_MESSAGES = {
  keyRequired: 'Idempotency-Key header is required.',
  keyTooLong: 'Idempotency-Key must be at most 100 characters.',
  keyReused: 'This Idempotency-Key was used for another tip.',
  ownStream: 'You cannot tip your own stream.',
  /** The web maps a message containing this to 'The broadcaster cannot receive tips at this time' (spec part 2 §8). */
  cannotTip: 'Cannot tip this user.',
  /** The web matches 'Insufficient funds' (spec part 2 §8). */
  insufficient: 'Insufficient funds',
  tooFast: 'You are sending tips too fast. Please wait a moment.',
} as const;

export const IDEMPOTENCY_KEY_MAX = 100;
/** Tips one user may send per minute, counted in the database (every instance). */
export const TIP_RATE = { tips: 30, windowMs: 60_000 };
/** Kinds that pay a user for what they do (their earnings); the ledger entries credit them net of fees. */
const EARNING_KINDS: TransferKind[] = ['tip', 'post_purchase', 'subscription', 'meeting_fee'];

/** The platform's share of a payment: floor(amount × percent / 100). */
export const platformFee = (amount: number, percent: number) => Math.floor((amount * percent) / 100);

type SignedInViewer = Viewer & { principal: Principal };
type Publish = (streamId: number, message: RealtimeMessage) => Promise<void>;

export function createTipsService(deps: {
  db: Db;
  ledger: Ledger;
  streams: StreamsService;
  accounts: AccountsService;
  /** Percent per kind (config PLATFORM_FEES). */
  fees: Partial<Record<TransferKind, number>>;
  publish: Publish;
  tipsPerMinute?: number;
  log: { warn(obj: object, msg: string): void };
}) {
  const { db, ledger } = deps;
  const tipsPerMinute = deps.tipsPerMinute ?? TIP_RATE.tips;

  /** A stream's owner never changes: remembered per process, so the usual tip needs no lookup first. */
  const streamOwners = new Map<number, number>();
  const rememberOwner = (streamId: number, ownerId: number) => {
    if (streamOwners.size >= 100_000) streamOwners.clear();
    streamOwners.set(streamId, ownerId);
  };

  /**
   * True when the stream is plainly open to the tipper, as SQL: this owner's, not deleted or hidden,
   * public, not 18+, no ban on the tipper, broadcaster active. Anything else takes the full checks.
   */
  const plainlyTippable = (streamId: number, ownerId: number, tipper: number) => sql`exists (
    select 1 from ${streamsTable} s
    where s.id = ${streamId} and s.user_id = ${ownerId} and s.deleted_at is null and not s.hidden and s.audience = 'PUBLIC' and s.rating <> 'PLUS_18'
      and not exists (select 1 from ${streamBans} b where b.stream_id = s.id and b.user_id = ${tipper})
      and exists (select 1 from ${users} u where u.id = s.user_id and u.account_status = 'active'))`;

  /** The key as the ledger stores it: scoped to the tipper, so no one can use (or block) another user's keys. */
  const ledgerKey = (userId: number, key: string) => `tip:${userId}:${key}`;

  async function assertMayReceiveTips(userId: number) {
    const [row] = await db.select({ status: users.accountStatus }).from(users).where(eq(users.id, userId));
    if (row?.status !== 'active') throw forbidden(TIP_MESSAGES.cannotTip);
  }

  async function publishTip(streamId: number, ownerId: number, tipper: number, amount: number, transferId: number, known?: Tipper) {
    const person = known ?? (await deps.accounts.publicUsers([tipper])).get(tipper);
    await deps.publish(streamId, tipMessage({ transferId, tipperId: tipper, streamOwnerId: ownerId, amount, at: new Date(), tipper: person }));
  }

  /** The answer to a tip: what the tipper has given on the stream, what they still owe, their balances. */
  function answer(transferId: number, { spend, owed }: { spend: number; owed: number }, balance: Record<Currency, number>) {
    return { transfer_id: transferId, has_paid: owed <= 0, viewer_spend: { currency: 'CON' as const, amount: spend }, balance };
  }

  interface TipAttempt {
    viewer: SignedInViewer;
    streamId: number;
    ownerId: number;
    amount: number;
    idempotencyKey: string;
    /** The stream passed the full checks already; otherwise the statement checks plainlyTippable. */
    checked: boolean;
  }

  /**
   * The tip as one statement: the throttle's token taken, the transfer (the broadcaster's and the fee
   * legs on the tipper's receiving shard), and what the answer needs read alongside. Null when the
   * stream is not plainly tippable (unchecked attempts only): nothing moved, no token taken.
   */
  async function transferTip(tip: TipAttempt) {
    const { streamId, ownerId, amount } = tip;
    const tipper = tip.viewer.principal.userId;
    const open = tip.checked ? sql`true` : plainlyTippable(streamId, ownerId, tipper);
    const percent = deps.fees.tip ?? 0;
    const fee = platformFee(amount, percent);
    const shard = receivingShard(tipper);
    let outcome;
    try {
      outcome = await ledger.guardedTransfer({
        kind: 'tip',
        idempotencyKey: ledgerKey(tipper, tip.idempotencyKey),
        fromUserId: tipper,
        toUserId: ownerId,
        streamId,
        amount,
        currency: 'CON',
        details: { fee, fee_percent: percent },
        legs: [
          { account: { userId: tipper, currency: 'CON' }, amount: -amount },
          { account: { userId: ownerId, currency: 'CON', shard }, amount: amount - fee },
          { account: { system: 'fees', currency: 'CON', shard }, amount: fee },
        ],
      }, {
        with: { bucket: takeTokenSql(`tip:${tipper}`, { capacity: tipsPerMinute, windowMs: TIP_RATE.windowMs }, open) },
        guard: sql`coalesce((select allowed from bucket), false)`,
        select: {
          // The bucket answers a row exactly when the stream was open (its `when`).
          open: sql`exists (select 1 from bucket)`,
          minimum: sql`select tip_viewer_min_amount from ${streamsTable} where id = ${streamId}`,
          spend: sql`select coalesce(sum(amount), 0) from ${ledgerTransfers}
            where stream_id = ${streamId} and from_user_id = ${tipper} and kind = 'tip' and currency = 'CON'`,
          wallet: sql`select balance from ${ledgerAccounts} where user_id = ${tipper} and currency = 'CON' and shard = 0`,
          wallets: sql`select json_object_agg(currency, total) from (
            select currency, sum(balance) as total from ${ledgerAccounts} where user_id = ${tipper} group by currency) w`,
          tipper: sql`select json_build_object('username', username, 'fullname', fullname, 'avatar', avatar) from ${users} where id = ${tipper}`,
        },
      });
    } catch (error) {
      if (error instanceof InsufficientFunds) throw new AppError(402, 'insufficient_funds', TIP_MESSAGES.insufficient);
      throw error;
    }
    if (!outcome.selected.open) return null;
    if (!outcome.allowed) throw tooManyRequests(TIP_MESSAGES.tooFast);

    if (outcome.created) {
      // The coins moved: a failed publish must not turn the answer into an error (the client would tip again).
      const person = outcome.selected.tipper as Tipper | null;
      await publishTip(streamId, ownerId, tipper, amount, outcome.transferId, person ?? undefined).catch((error: unknown) =>
        deps.log.warn({ err: error, transferId: outcome.transferId }, 'TIP message not published'));
      // What the statement read before its transfer, plus the transfer: exact unless another movement on
      // the tipper's coin wallet committed in between (then read again, as without the shortcut).
      const wallets = (outcome.selected.wallets ?? {}) as Partial<Record<Currency, number | string>>;
      const after = outcome.balanceAfter.get(accountKey({ userId: tipper, currency: 'CON' }));
      if (after !== undefined && Number(outcome.selected.wallet ?? 0) - amount === after) {
        const balance = Object.fromEntries(CURRENCIES.map((c) => [c, Number(wallets[c] ?? 0)])) as Record<Currency, number>;
        balance.CON -= amount;
        // streams.payment's rule, from what the statement read: the minimum is tip_viewer_min_amount for
        // every viewer until subscriber prices arrive.
        const spend = Number(outcome.selected.spend ?? 0) + amount;
        return answer(outcome.transferId, { spend, owed: Math.max(0, Number(outcome.selected.minimum ?? 0) - spend) }, balance);
      }
    } else {
      // A retry answers the first tip; the same key for a different tip is refused.
      const [first] = await db.select({ streamId: ledgerTransfers.streamId, amount: ledgerTransfers.amount })
        .from(ledgerTransfers).where(eq(ledgerTransfers.id, outcome.transferId));
      if (!first || Number(first.streamId) !== streamId || Number(first.amount) !== amount) throw conflict(TIP_MESSAGES.keyReused);
    }

    // The coins moved (now or by the first request with this key): answer from the books, with no
    // watch check that a change since could fail.
    const [paid, balance] = await Promise.all([deps.streams.paymentById(streamId, tip.viewer), ledger.balances(tipper)]);
    return answer(outcome.transferId, paid, balance);
  }

  return {
    /** Checks the header value (the route passes what it got). */
    checkKey(value: string | string[] | undefined): string {
      const key = Array.isArray(value) ? value[0] : value;
      if (key === undefined || key.trim() === '') throw badRequest(TIP_MESSAGES.keyRequired, 'Idempotency-Key');
      if (key.length > IDEMPOTENCY_KEY_MAX) throw badRequest(TIP_MESSAGES.keyTooLong, 'Idempotency-Key');
      return key;
    },

    /**
     * One tip, usually in one statement (ARCHITECTURE §3: round trips dominate money paths): for a
     * stream whose owner this process knows, transferTip checks in SQL that the stream is plainly open
     * to the tipper. Any other stream, and any stream that fails that check, goes through the full
     * checks first (streams.lookup: audience, rating, bans; own stream; broadcaster status).
     */
    async send(viewer: SignedInViewer, streamId: number, amount: number, idempotencyKey: string) {
      const tipper = viewer.principal.userId;
      const knownOwner = streamOwners.get(streamId);
      if (knownOwner !== undefined && knownOwner !== tipper) {
        const done = await transferTip({ viewer, streamId, ownerId: knownOwner, amount, idempotencyKey, checked: false });
        if (done) return done;
      }
      // Watchable (audience, rating, bans), but the pay wall does not stop a tip: tipping lifts it.
      const row = await deps.streams.lookup(streamId, viewer);
      rememberOwner(row.id, row.userId);
      if (row.userId === tipper) throw forbidden(TIP_MESSAGES.ownStream);
      await assertMayReceiveTips(row.userId);
      const done = await transferTip({ viewer, streamId: row.id, ownerId: row.userId, amount, idempotencyKey, checked: true });
      if (!done) throw new Error('a checked tip was refused as unchecked');
      return done;
    },

    /** Coins this user tipped on the stream. */
    viewerSpend: (streamId: number, userId: number) => viewerSpendOn(db, streamId, userId),

    /** The stream's top tippers, coins summed, most first. */
    async supporters(streamId: number, viewer: Viewer, limit: number) {
      const row = await deps.streams.lookup(streamId, viewer);
      const total = sql<string | number>`sum(${ledgerTransfers.amount})`;
      const rows = await db.select({ userId: ledgerTransfers.fromUserId, total }).from(ledgerTransfers)
        .where(and(eq(ledgerTransfers.streamId, row.id), eq(ledgerTransfers.kind, 'tip'), eq(ledgerTransfers.currency, 'CON')))
        .groupBy(ledgerTransfers.fromUserId)
        .orderBy(desc(total), ledgerTransfers.fromUserId)
        .limit(limit);
      const ids = rows.map((r) => Number(r.userId));
      const people = await deps.accounts.publicUsers(ids);
      return rows.map((r) => {
        const userId = Number(r.userId);
        const person = people.get(userId);
        const amt = Number(r.total);
        return { user_id: userId, name: person ? person.fullname || person.username : '', avatar: person?.avatar ?? null, amt, amtFormatted: shortNumber(amt) };
      });
    },

    /** A broadcaster's earnings (GRANT PERMISSION or admin): coins received net of fees, all time and this calendar month (UTC). */
    async earningDetails(principal: Principal, userId: number, now = new Date()) {
      if (!mayActOnAnyStream(principal, 'GRANT PERMISSION')) throw forbidden();
      const [user] = await db.select({ createdAt: users.createdAt }).from(users).where(eq(users.id, userId));
      if (!user) throw notFound('No such user.');
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const iso = (value: Date | string | null | undefined) => (value ? new Date(value).toISOString() : null);
      const biggest = (column: typeof ledgerTransfers.toUserId | typeof ledgerTransfers.fromUserId) =>
        db.select({ at: ledgerTransfers.createdAt }).from(ledgerTransfers)
          .where(and(eq(column, userId), eq(ledgerTransfers.kind, 'tip')))
          .orderBy(desc(ledgerTransfers.amount), desc(ledgerTransfers.id)).limit(1);
      const earned = sql<string | number>`coalesce(sum(${ledgerEntries.amount}), 0)`;
      const earnedThisMonth = sql<string | number>`coalesce(sum(${ledgerEntries.amount}) filter (where ${ledgerTransfers.createdAt} >= ${monthStart.toISOString()}::timestamptz), 0)`;
      const [[lastStream], [received], [sent], [earnings]] = await Promise.all([
        db.select({ at: sql<Date | string | null>`max(${streamsTable.startedAt})` }).from(streamsTable).where(eq(streamsTable.userId, userId)),
        biggest(ledgerTransfers.toUserId),
        biggest(ledgerTransfers.fromUserId),
        // What reached the user's coin wallet from earning transfers paid to them: net of the platform fee.
        db.select({ total: earned, month: earnedThisMonth }).from(ledgerEntries)
          .innerJoin(ledgerTransfers, eq(ledgerTransfers.id, ledgerEntries.transferId))
          .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
          .where(and(
            eq(ledgerAccounts.userId, userId),
            eq(ledgerAccounts.currency, 'CON'),
            eq(ledgerTransfers.toUserId, userId),
            inArray(ledgerTransfers.kind, EARNING_KINDS),
            gte(ledgerEntries.amount, 0),
          )),
      ]);
      return {
        accountCreated: user.createdAt.toISOString(),
        lastStreamDate: iso(lastStream?.at),
        maxTipReceivedDate: iso(received?.at),
        maxTipSentDate: iso(sent?.at),
        totalEarnings: Number(earnings?.total ?? 0),
        totalMonthlyEarnings: Number(earnings?.month ?? 0),
      };
    },
  };
}

export type TipsService = ReturnType<typeof createTipsService>;

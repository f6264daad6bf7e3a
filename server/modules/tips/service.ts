/**
 * Tips on streams (spec part 1 §2 Tip selector, §4; part 2 §7, §8), supporters and earnings. A tip is
 * one ledger transfer (one SQL statement, idempotent by key); its TIP message is published after it
 * committed, and only by the request that moved the coins (docs/architecture.md §7, §9).
 */
import { sql, type SQL } from 'drizzle-orm';
import { fill, MSG } from '../../../common/messages';
import { owedTips } from '../../../common/rules/pay-wall';
import { shortNumber } from '../../../common/rules/format';
import { PAGE_SIZE } from '../../../common/constants';
import type { EventOutbox } from '../../platform/event-outbox';
import type { Principal } from '../../platform/http/auth';
import { appError, badRequest, forbidden, notFound, tooManyRequests } from '../../platform/http/errors';
import { assertSameRequest, FINGERPRINT_DETAIL, type KeyedRequest } from '../../platform/http/idempotency';
import { createBatcher } from '../../platform/batching';
import { takeTokenSql, takeTokensSql } from '../../platform/throttle';
import type { AccountsService } from '../accounts';
import {
  accountKey, balancesJsonSql, CURRENCIES, InsufficientFunds, platformFee, receivingShard, receivingShardsBySlot, spendOnStreamSql, walletBalanceSql,
  type Currency, type Ledger, type TransferKind, type TransferRequest,
} from '../ledger';
import { mayActOnAnyStream, minimumSql, plainlyWatchableSql, type StreamAccess, type StreamReads, type StreamViewing, type Viewer } from '../streams';
import type { TipMenu } from './menu';
import './events';

/** How many of the latest tips the owner's live view lists. */
const LIVE_SESSION_TIPS = 20;

/**
 * Tips written together: at most this many in one statement, and this many statements at once per
 * instance, each crediting its own receiving shards (one batch commits while the next runs).
 */
const TIP_BATCH = { maxItems: 64, maxRunning: 2 };

/** Tips one user may send per minute, counted in the database (every instance). */
export const TIP_RATE = { tips: 30, windowMs: 60_000 };

type SignedInViewer = Viewer & { principal: Principal };

export function createTipsService(deps: {
  ledger: Ledger;
  streamReads: Pick<StreamReads, 'ownStream' | 'lastStreamStartedAt'>;
  streamAccess: Pick<StreamAccess, 'lookup' | 'paymentById'>;
  streamViewing: Pick<StreamViewing, 'activeViewers'>;
  accounts: AccountsService;
  /** Percent per kind (config PLATFORM_FEES). */
  fees: Partial<Record<TransferKind, number>>;
  /** `tip.received`: written by the tip's statement, its immediate handlers run after it. */
  outbox: EventOutbox;
  menu: TipMenu;
  tipsPerMinute?: number;
}) {
  const { ledger } = deps;
  const tipsPerMinute = deps.tipsPerMinute ?? TIP_RATE.tips;

  /** A stream's owner never changes: remembered per process, so the usual tip needs no lookup first. */
  const streamOwners = new Map<number, number>();
  const rememberOwner = (streamId: number, ownerId: number) => {
    if (streamOwners.size >= 100_000) streamOwners.clear();
    streamOwners.set(streamId, ownerId);
  };

  /** The key as the ledger stores it: scoped to the tipper, so no one can use (or block) another user's keys. */
  const ledgerKey = (userId: number, key: string) => `tip:${userId}:${key}`;

  async function assertMayReceiveTips(userId: number) {
    if (!(await deps.accounts.isActive(userId))) throw appError('cannot_tip');
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
    keyed: KeyedRequest;
    message: string | undefined;
    /** The stream passed the full checks already; otherwise the statement checks plainlyTippable. */
    checked: boolean;
    /** The tip menu's action it buys (its request is written with the transfer). */
    menuItem?: Awaited<ReturnType<TipMenu['offeredItem']>>;
  }

  /** The tip as a ledger transfer: the broadcaster's and the fee legs on a receiving shard (the tipper's unless given). */
  function tipRequest(tip: TipAttempt, shard = receivingShard(tip.viewer.principal.userId)): TransferRequest {
    const { streamId, ownerId, amount } = tip;
    const tipper = tip.viewer.principal.userId;
    const percent = deps.fees.tip ?? 0;
    const fee = platformFee(amount, percent);
    return {
      kind: 'tip',
      idempotencyKey: ledgerKey(tipper, tip.keyed.key),
      fromUserId: tipper,
      toUserId: ownerId,
      streamId,
      amount,
      currency: 'CON',
      details: {
        fee, fee_percent: percent, ...(tip.message ? { message: tip.message } : {}), ...(tip.menuItem ? { menu_item: tip.menuItem.label } : {}),
        [FINGERPRINT_DETAIL]: tip.keyed.fingerprint,
      },
      legs: [
        { account: { userId: tipper, currency: 'CON' }, amount: -amount },
        { account: { userId: ownerId, currency: 'CON', shard }, amount: amount - fee },
        { account: { system: 'fees', currency: 'CON', shard }, amount: fee },
      ],
    };
  }

  /** `tip.received` as the outbox keeps it, from the transfer the statement wrote (at: the transfer's time). */
  const tipEventSql = (f: Record<'transferId' | 'streamId' | 'ownerId' | 'tipperId' | 'amount', SQL>, from: SQL) => deps.outbox.insertSql('tip.received', sql`
    select jsonb_build_object('transferId', ${f.transferId}, 'streamId', ${f.streamId}, 'ownerId', ${f.ownerId}, 'tipperId', ${f.tipperId},
      'amount', ${f.amount}, 'at', now()) as payload from ${from}`);

  const tipRate = { capacity: tipsPerMinute, windowMs: TIP_RATE.windowMs };
  const bucketKey = (userId: number) => `tip:${userId}`;

  /** What the answer needs, read by the tip's statement as of before its transfer. */
  const answerReads = (streamId: number | SQL, tipper: number | SQL) => ({
    minimum: minimumSql(streamId, tipper),
    spend: spendOnStreamSql(streamId, tipper),
    wallet: walletBalanceSql(tipper, 'CON'),
    wallets: balancesJsonSql(tipper),
    tipper: deps.accounts.publicUserJsonSql(tipper),
  });

  /**
   * Tips that arrive together go to the database as one statement (decision 0033), one per tipper in
   * each: per tip the same checks as alone — the stream plainly open (unchecked attempts), the key
   * unused, the wallet covering it, a throttle token — and a tip that fails any of them moves nothing.
   */
  const writeTips = ledger.prepareTransferBatch({
    columns: { checked: 'boolean', bucket_key: 'text' },
    condition: sql`p.checked or ${plainlyWatchableSql(sql`p.stream_id`, sql`p.to_user_id`, sql`p.from_user_id`)}`,
    with: { bucket: takeTokensSql(sql`select bucket_key as key from ready`, tipRate) },
    guard: sql`exists (select 1 from bucket where bucket.key = ready.bucket_key and bucket.allowed)`,
    select: answerReads(sql`p.stream_id`, sql`p.from_user_id`),
    after: {
      tip_events: tipEventSql({ transferId: sql`done.id`, streamId: sql`ok.stream_id`, ownerId: sql`ok.to_user_id`, tipperId: sql`ok.from_user_id`, amount: sql`ok.amount` }, sql`done join ok using (i)`),
    },
  });
  const batchShards = receivingShardsBySlot(TIP_BATCH.maxRunning);
  const batches = createBatcher<TipAttempt, Awaited<ReturnType<typeof writeTips>>[number]>({
    maxItems: TIP_BATCH.maxItems,
    maxRunning: TIP_BATCH.maxRunning,
    key: (tip) => tip.viewer.principal.userId,
    run: (tips, slot) => {
      const shard = batchShards.next(slot);
      return writeTips(tips.map((tip) => ({ request: tipRequest(tip, shard), values: { checked: tip.checked, bucket_key: bucketKey(tip.viewer.principal.userId) } })));
    },
  });

  /**
   * The tip, with the others that arrive with it. Null when the stream is not plainly tippable
   * (unchecked attempts only): nothing moved, no token taken. A tip the batch leaves undone — a retried
   * key, a wallet whose coins sit partly in receiving shards, a failed batch — goes alone.
   */
  async function transferTip(tip: TipAttempt) {
    const batched = await batches.submit(tip).catch(() => null);
    if (batched && !batched.replay && batched.covered) {
      if (!batched.ready) return null;
      if (!batched.allowed) throw tooManyRequests(MSG.tipsTooFast);
      if (batched.transferId !== null) return settle(tip, { transferId: batched.transferId, created: true, selected: batched.selected, balanceAfter: batched.balanceAfter });
    }
    return transferTipAlone(tip);
  }

  /**
   * The tip as one statement of its own: the throttle's token taken, the transfer, and what the answer
   * needs read alongside; the ledger gathers the tipper's receiving shards when the wallet falls short.
   */
  async function transferTipAlone(tip: TipAttempt) {
    const { streamId, ownerId } = tip;
    const tipper = tip.viewer.principal.userId;
    const open = tip.checked ? sql`true` : plainlyWatchableSql(streamId, ownerId, tipper);
    let outcome;
    try {
      outcome = await ledger.guardedTransfer(tipRequest(tip), {
        with: { bucket: takeTokenSql(bucketKey(tipper), tipRate, open) },
        guard: sql`coalesce((select allowed from bucket), false)`,
        select: {
          // The bucket answers a row exactly when the stream was open (its `when`).
          open: sql`exists (select 1 from bucket)`,
          ...answerReads(streamId, tipper),
        },
        after: {
          tip_event: tipEventSql({ transferId: sql`t.id`, streamId: sql`${streamId}::bigint`, ownerId: sql`${ownerId}::bigint`, tipperId: sql`${tipper}::bigint`, amount: sql`${tip.amount}::bigint` }, sql`t`),
          ...(tip.menuItem ? { menu_request: deps.menu.requestSql(streamId, tipper, tip.menuItem) } : {}),
        },
      });
    } catch (error) {
      if (error instanceof InsufficientFunds) throw appError('insufficient_funds');
      throw error;
    }
    if (!outcome.selected.open) return null;
    if (!outcome.allowed) throw tooManyRequests(MSG.tipsTooFast);
    return settle(tip, outcome);
  }

  /** The answer to a tip that moved coins now or before (a retried key), with its announcement when now. */
  async function settle(tip: TipAttempt, outcome: { transferId: number; created: boolean; selected: Record<string, unknown>; balanceAfter: Map<string, number> }) {
    const { streamId, ownerId, amount } = tip;
    const tipper = tip.viewer.principal.userId;
    if (outcome.created) {
      // The coins moved: a failed publish must not turn the answer into an error (the client would tip again).
      const person = (outcome.selected.tipper as { username: string; fullname: string; avatar: string | null } | null) ?? undefined;
      await deps.outbox.afterCommit('tip.received', {
        transferId: outcome.transferId, streamId, ownerId, tipperId: tipper, amount, at: new Date().toISOString(), tipper: person, message: tip.message,
        menuItem: tip.menuItem?.label,
      });
      // What the statement read before its transfer, plus the transfer: exact unless another movement on
      // the tipper's coin wallet committed in between (then read again, as without the shortcut).
      const wallets = (outcome.selected.wallets ?? {}) as Partial<Record<Currency, number | string>>;
      const after = outcome.balanceAfter.get(accountKey({ userId: tipper, currency: 'CON' }));
      if (after !== undefined && Number(outcome.selected.wallet ?? 0) - amount === after) {
        const balance = Object.fromEntries(CURRENCIES.map((c) => [c, Number(wallets[c] ?? 0)])) as Record<Currency, number>;
        balance.CON -= amount;
        // StreamAccess.payment's rule, from what the statement read (minimumSql: a subscriber's minimum where the tipper is one).
        const spend = Number(outcome.selected.spend ?? 0) + amount;
        return answer(outcome.transferId, { spend, owed: owedTips(Number(outcome.selected.minimum ?? 0), spend) }, balance);
      }
    } else {
      // A retry answers the first tip; the same key for another request is refused (the shared rule).
      const first = await ledger.transferById(outcome.transferId);
      assertSameRequest(first?.details[FINGERPRINT_DETAIL], tip.keyed);
    }

    // The coins moved (now or by the first request with this key): answer from the books, with no
    // watch check that a change since could fail.
    const [paid, balance] = await Promise.all([deps.streamAccess.paymentById(streamId, tip.viewer), ledger.balances(tipper)]);
    return answer(outcome.transferId, paid, balance);
  }

  /** The checks every tip on a stream passes before it moves coins (watchable, not one's own, a broadcaster who may be tipped). */
  async function checkedStream(viewer: SignedInViewer, streamId: number) {
    // Watchable (audience, rating, bans), but the pay wall does not stop a tip: tipping lifts it.
    const row = await deps.streamAccess.lookup(streamId, viewer);
    rememberOwner(row.id, row.userId);
    if (row.userId === viewer.principal.userId) throw forbidden(MSG.cannotTipOwnStream);
    await assertMayReceiveTips(row.userId);
    return row;
  }

  /**
   * A tip that buys an action of the broadcaster's menu: the amount is its price, and the request is
   * written by the tip's statement. A retried key answers its first tip whatever the menu says now.
   */
  async function sendForMenuItem(viewer: SignedInViewer, streamId: number, amount: number, keyed: KeyedRequest, message: string | undefined, menuItemId: number) {
    const row = await checkedStream(viewer, streamId);
    const retried = (await ledger.transferIdByKey(ledgerKey(viewer.principal.userId, keyed.key))) !== null;
    const menuItem = retried ? undefined : await deps.menu.offeredItem(row.userId, menuItemId);
    if (menuItem && menuItem.price !== amount) throw badRequest(fill(MSG.menuItemPrice, { price: menuItem.price }), 'amount');
    const done = await transferTipAlone({ viewer, streamId: row.id, ownerId: row.userId, amount, keyed, message, checked: true, menuItem });
    if (!done) throw new Error('a checked tip was refused as unchecked');
    return done;
  }

  return {
    /**
     * One tip, usually in one statement (docs/architecture.md §6: round trips dominate money paths): for a
     * stream whose owner this process knows, transferTip checks in SQL that the stream is plainly open
     * to the tipper. Any other stream, and any stream that fails that check, goes through the full
     * checks first (StreamAccess.lookup: audience, rating, bans; own stream; broadcaster status).
     */
    async send(viewer: SignedInViewer, streamId: number, amount: number, keyed: KeyedRequest, message?: string, menuItemId?: number) {
      const tipper = viewer.principal.userId;
      if (menuItemId !== undefined) return sendForMenuItem(viewer, streamId, amount, keyed, message, menuItemId);
      const knownOwner = streamOwners.get(streamId);
      if (knownOwner !== undefined && knownOwner !== tipper) {
        const done = await transferTip({ viewer, streamId, ownerId: knownOwner, amount, keyed, message, checked: false });
        if (done) return done;
      }
      const row = await checkedStream(viewer, streamId);
      const done = await transferTip({ viewer, streamId: row.id, ownerId: row.userId, amount, keyed, message, checked: true });
      if (!done) throw new Error('a checked tip was refused as unchecked');
      return done;
    },

    /** Coins this user tipped on the stream. */
    viewerSpend: (streamId: number, userId: number) => ledger.spendOnStream(streamId, userId),

    /** The stream's top tippers, coins summed, most first. */
    async supporters(streamId: number, viewer: Viewer, limit: number) {
      const row = await deps.streamAccess.lookup(streamId, viewer);
      const rows = await ledger.topTippers(row.id, limit);
      const people = await deps.accounts.publicUsers(rows.map((r) => r.userId));
      return rows.map(({ userId, total: amt }) => {
        const person = people.get(userId);
        return { user_id: userId, name: person ? person.fullname || person.username : '', avatar: person?.avatar ?? null, amt, amtFormatted: shortNumber(amt) };
      });
    },

    /**
     * The owner's live view of their stream (one stream is one broadcast session): what its tips
     * earned, the latest tips and the top supporters, viewers now and in total. Anyone else: not found.
     */
    async liveSession(streamId: number, principal: Principal) {
      const row = await deps.streamReads.ownStream(streamId, principal);
      const [totals, latest, top, viewers] = await Promise.all([
        ledger.tipTotalsOnStream(row.id, row.userId),
        ledger.tipsOnStream(row.id, LIVE_SESSION_TIPS),
        ledger.topTippers(row.id, PAGE_SIZE.topLists),
        deps.streamViewing.activeViewers(row.id),
      ]);
      const people = await deps.accounts.publicUsers([...new Set([...latest, ...top].map((r) => r.userId))]);
      const nameOf = (userId: number) => {
        const person = people.get(userId);
        return { name: person ? person.fullname || person.username : '', avatar: person?.avatar ?? null };
      };
      return {
        earnings: { currency: 'CON' as const, ...totals },
        tips: latest.map((t) => ({ transfer_id: Number(t.id), user_id: t.userId, ...nameOf(t.userId), amount: Number(t.amount), time: new Date(t.createdAt).toISOString() })),
        supporters: top.map(({ userId, total: amt }) => ({ user_id: userId, ...nameOf(userId), amt, amtFormatted: shortNumber(amt) })),
        viewers,
        tviewers: row.totalViews,
      };
    },

    /** A broadcaster's earnings (GRANT PERMISSION or admin): coins received net of fees, all time and this calendar month (UTC). */
    async earningDetails(principal: Principal, userId: number, now = new Date()) {
      if (!mayActOnAnyStream(principal, 'GRANT PERMISSION')) throw forbidden();
      const createdAt = await deps.accounts.createdAt(userId);
      if (!createdAt) throw notFound(MSG.userNotFound);
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
      const iso = (value: Date | null) => value?.toISOString() ?? null;
      const [lastStream, received, sent, earnings] = await Promise.all([
        deps.streamReads.lastStreamStartedAt(userId),
        ledger.biggestTipAt(userId, 'to'),
        ledger.biggestTipAt(userId, 'from'),
        ledger.earnings(userId, monthStart),
      ]);
      return {
        accountCreated: createdAt.toISOString(),
        lastStreamDate: iso(lastStream),
        maxTipReceivedDate: iso(received),
        maxTipSentDate: iso(sent),
        totalEarnings: earnings.total,
        totalMonthlyEarnings: earnings.since,
      };
    },
  };
}

export type TipsService = ReturnType<typeof createTipsService>;

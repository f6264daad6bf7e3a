/**
 * Private and group shows (decision 0085). A viewer asks for a private show and the broadcaster accepts
 * (the first minute is paid, the stream shuts to everyone else) or declines; a group show goes on sale
 * and starts once enough tickets are held; where the stream's skin allows, others spy on a private show
 * at the lower price. Each seat pays its minutes at their start (billing.ts); a seat ends when its viewer
 * leaves or is no longer heard from, or their coins run out; a private show ends with its buyer, a group
 * show with its last ticket, and every show with the broadcast. Every change of a stream's shows runs
 * under that stream's transaction lock, and is told after it commits (notices.ts).
 */
import { and, asc, desc, eq, gt, inArray, ne, or, sql } from 'drizzle-orm';
import type { PublicShow, ShowOffer, ShowOfferInput, ShowSeat } from '../../../common/api/shows';
import { fill, MSG } from '../../../common/messages';
import { coinsToStart, minutesRun, SHOW, type SeatEndReason, type ShowEndReason } from '../../../common/rules/shows';
import { SKINS, isSkinId } from '../../../common/skins';
import { lockForTransaction } from '../../platform/db/advisory-lock';
import type { Db, Executor, Tx } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import type { Period } from '../../platform/media/hls-playlist';
import { appError, conflict, forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import type { Ledger } from '../ledger';
import type { StreamAccess, StreamReads, StreamRow, Viewer } from '../streams';
import { inParallel, type MinuteOutcome, type SeatRow, type ShowBilling, type ShowRow } from './billing';
import { showNotices, type ShowChannels, type ShowNotices } from './notices';
import { showOffers, showSeats, shows } from './tables';

/** Seats billed per run of the billing job, how many at once, and how long a run's claim on them lasts. */
const BILLING_BATCH = 500;
const BILLING_WIDTH = 4;
const BILLING_LEASE_MS = 10_000;
/** A show's minutes are left out of the stream's playlists from a little before it started to a little after it ended. */
const KEPT_OUT_BEFORE_MS = 1000;
const KEPT_OUT_AFTER_MS = 2000;
/** How long an instance keeps a stream's left-out stretches, and for how many streams at most. */
const KEPT_OUT_CACHE_MS = 2000;
const KEPT_OUT_CACHED = 10_000;
/** How long a viewer's ended seat is still shown to them (why it ended). */
const ENDED_SEAT_SHOWN_MS = 10 * 60_000;

type OfferRow = typeof showOffers.$inferSelect;

const NO_OFFER: Omit<OfferRow, 'userId' | 'updatedAt'> = { privatePrice: 0, groupPrice: 0, groupMinTickets: 3, spyPrice: 0, minMinutes: 0 };

const spyInSkin = (skin: string) => isSkinId(skin) && SKINS[skin].flags.spyShows;

export function toOffer(row: Omit<OfferRow, 'userId' | 'updatedAt'>, spyAllowed: boolean): ShowOffer {
  return {
    private_price: row.privatePrice,
    group_price: row.groupPrice,
    group_min_tickets: row.groupMinTickets,
    spy_price: spyAllowed ? row.spyPrice : 0,
    min_minutes: row.minMinutes,
  };
}

export function toPublicShow(show: ShowRow, tickets: number, skin: string): PublicShow {
  return {
    show_id: show.id,
    stream_id: show.streamId,
    kind: show.kind,
    state: show.state === 'live' ? 'live' : 'gathering',
    price_per_minute: show.pricePerMinute,
    spy_price: show.kind === 'private' && show.spyPrice > 0 && spyInSkin(skin) ? show.spyPrice : null,
    min_minutes: show.minMinutes,
    tickets,
    min_tickets: show.minTickets,
    started_time: show.startedAt?.toISOString() ?? null,
  };
}

export function toSeat(seat: SeatRow, show: ShowRow): ShowSeat {
  return {
    show_id: show.id,
    stream_id: show.streamId,
    kind: show.kind,
    role: seat.role,
    state: seat.state,
    price_per_minute: seat.pricePerMinute,
    minutes_billed: seat.minutesBilled,
    coins_paid: seat.coinsPaid,
    paid_until: seat.paidUntil?.toISOString() ?? null,
    end_reason: seat.endReason ?? null,
  };
}

export function createShows(deps: {
  db: Db;
  ledger: Ledger;
  accounts: Pick<AccountsService, 'publicUsers'>;
  streamReads: Pick<StreamReads, 'findStream' | 'ownStream'>;
  streamAccess: Pick<StreamAccess, 'lookup'>;
  billing: ShowBilling;
  channels: ShowChannels;
  minuteMs: number;
}) {
  const { db, ledger, billing } = deps;
  const keptOutCache = new Map<number, { expires: number; periods: readonly Period[] }>();
  const lockStream = (tx: Tx, streamId: number) => lockForTransaction(tx, `shows:${streamId}`);

  /** Runs `work` in a transaction holding the stream's lock, then tells what it changed. */
  async function changing<T>(streamId: number, work: (tx: Tx, notices: ShowNotices) => Promise<T>): Promise<T> {
    const notices = showNotices(deps.channels);
    const result = await db.transaction(async (tx) => {
      await lockStream(tx, streamId);
      return work(tx, notices);
    });
    await notices.send();
    return result;
  }

  async function offerRow(userId: number, exec: Executor = db) {
    const [row] = await exec.select().from(showOffers).where(eq(showOffers.userId, userId));
    return row ?? { ...NO_OFFER };
  }

  /** The stream's show on sale or on now. */
  async function openShow(exec: Executor, streamId: number): Promise<ShowRow | null> {
    const [row] = await exec.select().from(shows).where(and(eq(shows.streamId, streamId), inArray(shows.state, ['gathering', 'live'])));
    return row ?? null;
  }

  async function ticketsOf(exec: Executor, showId: number): Promise<number> {
    const [row] = await exec.select({ n: sql<number>`count(*)::int` }).from(showSeats)
      .where(and(eq(showSeats.showId, showId), eq(showSeats.role, 'ticket'), ne(showSeats.state, 'ended')));
    return row?.n ?? 0;
  }

  async function publicOf(exec: Executor, show: ShowRow | null, skin: string): Promise<PublicShow | null> {
    if (!show || (show.state !== 'gathering' && show.state !== 'live')) return null;
    return toPublicShow(show, show.kind === 'group' ? await ticketsOf(exec, show.id) : 0, skin);
  }

  /** The viewer's newest seat on the stream's shows: one still open, or one that ended lately (the page says why). */
  async function seatOn(exec: Executor, streamId: number, userId: number): Promise<{ seat: SeatRow; show: ShowRow } | null> {
    const [row] = await exec.select({ seat: showSeats, show: shows }).from(showSeats).innerJoin(shows, eq(shows.id, showSeats.showId))
      .where(and(eq(shows.streamId, streamId), eq(showSeats.userId, userId),
        or(ne(showSeats.state, 'ended'), gt(showSeats.endedAt, new Date(Date.now() - ENDED_SEAT_SHOWN_MS)))))
      .orderBy(sql`${showSeats.state} = 'ended'`, desc(showSeats.id)).limit(1);
    return row ?? null;
  }

  /** Ends a seat; the show goes with its buyer (private) or its last ticket (group, once on). */
  async function endSeat(tx: Tx, notices: ShowNotices, show: ShowRow, seat: SeatRow, reason: SeatEndReason, skin: string) {
    const [ended] = await tx.update(showSeats).set({ state: 'ended', endedAt: new Date(), endReason: reason })
      .where(and(eq(showSeats.id, seat.id), ne(showSeats.state, 'ended'))).returning();
    if (!ended) return;
    notices.seat(ended.userId, toSeat(ended, show));
    notices.requests(show.broadcasterId, show.streamId);
    if (show.kind === 'private' && seat.role === 'buyer') {
      const why: ShowEndReason = show.state === 'requested' ? (reason === 'left' ? 'cancelled' : 'expired') : 'viewers-left';
      return endShow(tx, notices, show, why);
    }
    if (show.kind === 'group' && show.state === 'live' && (await ticketsOf(tx, show.id)) === 0) return endShow(tx, notices, show, 'viewers-left');
    if (show.kind === 'group') notices.show(show.streamId, await publicOf(tx, show, skin));
  }

  /** Ends the show and every seat still in it. */
  async function endShow(tx: Tx, notices: ShowNotices, show: ShowRow, reason: ShowEndReason) {
    const [ended] = await tx.update(shows).set({ state: 'ended', endedAt: new Date(), endReason: reason })
      .where(and(eq(shows.id, show.id), ne(shows.state, 'ended'))).returning();
    if (!ended) return;
    const seatReason: SeatEndReason = reason === 'declined' || reason === 'replaced' ? 'declined' : reason === 'expired' ? 'expired'
      : reason === 'cancelled' ? 'cancelled' : 'show-ended';
    const seats = await tx.update(showSeats).set({ state: 'ended', endedAt: new Date(), endReason: seatReason })
      .where(and(eq(showSeats.showId, show.id), ne(showSeats.state, 'ended'))).returning();
    for (const seat of seats) notices.seat(seat.userId, toSeat(seat, ended));
    if (show.state !== 'requested') notices.show(show.streamId, null);
    notices.requests(show.broadcasterId, show.streamId);
  }

  /** Before a payment in a transaction (where the ledger cannot gather): the payer's coins from their receiving shards. */
  const gather = (userId: number) => ledger.gather(userId, 'CON');

  async function assertCanAfford(userId: number, price: number, minMinutes: number) {
    const need = coinsToStart(price, minMinutes);
    if ((await ledger.balances(userId)).CON < need) {
      throw appError('insufficient_funds', fill(MSG.showCoinsToStart, { coins: need, minutes: Math.max(1, minMinutes) }));
    }
  }

  /** Pays a seat's first minute in the transaction; a seat that cannot is ended with why. */
  async function startSeat(tx: Tx, notices: ShowNotices, show: ShowRow, seat: SeatRow, skin: string): Promise<MinuteOutcome> {
    const outcome = await billing.chargeMinute(seat, show, { due: false }, tx);
    if (outcome.paid) notices.seat(seat.userId, toSeat(outcome.seat, show));
    else if (outcome.why === 'gone' || outcome.why === 'short') await endSeat(tx, notices, show, seat, outcome.why === 'gone' ? 'gone' : 'balance', skin);
    return outcome;
  }

  /** A seat for the viewer in the show: a new one, or theirs again (its minutes keep counting, so each keeps its own key). */
  async function takeSeat(tx: Tx, show: ShowRow, userId: number, role: SeatRow['role'], price: number): Promise<SeatRow> {
    const [seat] = await tx.insert(showSeats).values({ showId: show.id, userId, role, state: 'waiting', pricePerMinute: price })
      .onConflictDoUpdate({
        target: [showSeats.showId, showSeats.userId],
        set: { role, state: 'waiting', pricePerMinute: price, seenAt: new Date(), endedAt: null, endReason: null },
      }).returning();
    return seat!;
  }

  async function seatOf(tx: Tx, showId: number, userId: number): Promise<SeatRow | null> {
    const [seat] = await tx.select().from(showSeats).where(and(eq(showSeats.showId, showId), eq(showSeats.userId, userId)));
    return seat ?? null;
  }

  /** Starts a group show with the tickets held: each pays its first minute; those who cannot are let go. */
  async function startGroup(tx: Tx, notices: ShowNotices, show: ShowRow, skin: string) {
    const [live] = await tx.update(shows).set({ state: 'live', startedAt: new Date() }).where(eq(shows.id, show.id)).returning();
    const tickets = await tx.select().from(showSeats)
      .where(and(eq(showSeats.showId, show.id), eq(showSeats.state, 'waiting'))).orderBy(asc(showSeats.id));
    for (const seat of tickets) await startSeat(tx, notices, live!, seat, skin);
    const [still] = await tx.select().from(shows).where(eq(shows.id, show.id));
    if (still!.state === 'live') notices.show(show.streamId, await publicOf(tx, still!, skin));
  }

  async function joinPrivate(principal: Principal, stream: StreamRow): Promise<ShowSeat> {
    const offer = await offerRow(stream.userId);
    if (offer.privatePrice <= 0) throw conflict(MSG.privateShowsOff);
    await assertCanAfford(principal.userId, offer.privatePrice, offer.minMinutes);
    return changing(stream.id, async (tx, notices) => {
      const open = await openShow(tx, stream.id);
      const mine = open && (await seatOf(tx, open.id, principal.userId));
      if (mine && mine.state !== 'ended') return toSeat(mine, open!);
      if (open?.state === 'live') throw conflict(MSG.showAlreadyOn);
      const [asked] = await tx.select({ seat: showSeats, show: shows }).from(shows).innerJoin(showSeats, eq(showSeats.showId, shows.id))
        .where(and(eq(shows.streamId, stream.id), eq(shows.state, 'requested'), eq(shows.requestedBy, principal.userId)));
      if (asked) return toSeat(asked.seat, asked.show);
      const [show] = await tx.insert(shows).values({
        streamId: stream.id, broadcasterId: stream.userId, kind: 'private', state: 'requested', pricePerMinute: offer.privatePrice,
        spyPrice: offer.spyPrice, minMinutes: offer.minMinutes, requestedBy: principal.userId,
      }).returning();
      const seat = await takeSeat(tx, show!, principal.userId, 'buyer', offer.privatePrice);
      notices.seat(principal.userId, toSeat(seat, show!));
      notices.requests(stream.userId, stream.id);
      return toSeat(seat, show!);
    });
  }

  /**
   * A seat in the stream's open show `open` (checked by the caller, read again under the lock): the
   * viewer's own if they hold one, else a new one of `role` at `price`, then `seated` decides what
   * follows (the first minute paid, or the ticket held).
   */
  async function seatIn(principal: Principal, stream: StreamRow, open: ShowRow, role: SeatRow['role'], price: number,
    seated: (tx: Tx, notices: ShowNotices, show: ShowRow, seat: SeatRow) => Promise<ShowSeat>): Promise<ShowSeat> {
    await gather(principal.userId);
    return changing(stream.id, async (tx, notices) => {
      const show = await openShow(tx, stream.id);
      if (!show || show.id !== open.id) throw conflict(MSG.showOver);
      const mine = await seatOf(tx, show.id, principal.userId);
      if (mine && mine.state !== 'ended') return toSeat(mine, show);
      const seat = await takeSeat(tx, show, principal.userId, role, price);
      notices.requests(stream.userId, stream.id);
      return seated(tx, notices, show, seat);
    });
  }

  async function joinGroup(principal: Principal, stream: StreamRow): Promise<ShowSeat> {
    const open = await openShow(db, stream.id);
    if (!open || open.kind !== 'group') throw conflict(MSG.groupShowNotOnSale);
    await assertCanAfford(principal.userId, open.pricePerMinute, open.minMinutes);
    return seatIn(principal, stream, open, 'ticket', open.pricePerMinute, async (tx, notices, show, seat) => {
      if (show.state === 'live') return paidOrRefused(await startSeat(tx, notices, show, seat, stream.skin), seat, show);
      notices.seat(principal.userId, toSeat(seat, show));
      if ((await ticketsOf(tx, show.id)) >= show.minTickets) await startGroup(tx, notices, show, stream.skin);
      else notices.show(stream.id, await publicOf(tx, show, stream.skin));
      return toSeat((await seatOf(tx, show.id, principal.userId))!, show);
    });
  }

  async function joinAsSpy(principal: Principal, stream: StreamRow): Promise<ShowSeat> {
    const open = await openShow(db, stream.id);
    if (!open || open.kind !== 'private' || open.state !== 'live' || open.spyPrice <= 0 || !spyInSkin(stream.skin)) throw conflict(MSG.spyOff);
    await assertCanAfford(principal.userId, open.spyPrice, 1);
    return seatIn(principal, stream, open, 'spy', open.spyPrice, async (tx, notices, show, seat) =>
      paidOrRefused(await startSeat(tx, notices, show, seat, stream.skin), seat, show));
  }

  /** The seat after its first minute, or the refusal that says why it could not start. */
  function paidOrRefused(outcome: MinuteOutcome, seat: SeatRow, show: ShowRow): ShowSeat {
    if (outcome.paid) return toSeat(outcome.seat, show);
    if (outcome.why === 'short') throw appError('insufficient_funds', fill(MSG.showCoinsToStart, { coins: seat.pricePerMinute, minutes: 1 }));
    if (outcome.why === 'off') throw conflict(MSG.showOver);
    return toSeat(seat, show);
  }

  /** A viewer's seat the caller acts on: their open one on the stream. */
  async function openSeatOf(tx: Tx, streamId: number, userId: number) {
    const [row] = await tx.select({ seat: showSeats, show: shows }).from(showSeats).innerJoin(shows, eq(shows.id, showSeats.showId))
      .where(and(eq(shows.streamId, streamId), eq(showSeats.userId, userId), ne(showSeats.state, 'ended'), ne(shows.state, 'ended')))
      .orderBy(desc(showSeats.id)).limit(1);
    return row ?? null;
  }

  /** One due seat's minute, run by the billing job: paid, or the seat (and maybe its show) ended with why. */
  async function billSeat(due: { seat: SeatRow; show: ShowRow }): Promise<'paid' | 'ended' | 'skipped'> {
    let outcome = await billing.chargeMinute(due.seat, due.show, { due: true });
    if (!outcome.paid && outcome.why === 'short' && outcome.elsewhere) {
      await gather(due.seat.userId);
      outcome = await billing.chargeMinute(due.seat, due.show, { due: true });
    }
    if (outcome.paid) {
      const notices = showNotices(deps.channels);
      notices.seat(due.seat.userId, toSeat(outcome.seat, due.show));
      notices.requests(due.show.broadcasterId, due.show.streamId);
      await notices.send();
      return 'paid';
    }
    if (outcome.why === 'done') return 'skipped';
    const stream = await deps.streamReads.findStream(due.show.streamId).catch(() => null);
    await changing(due.show.streamId, async (tx, notices) => {
      const [show] = await tx.select().from(shows).where(eq(shows.id, due.show.id));
      const seat = await seatOf(tx, due.show.id, due.seat.userId);
      if (!show || !seat || seat.state === 'ended' || seat.minutesBilled !== due.seat.minutesBilled) return;
      const skin = stream?.skin ?? '';
      if (outcome.why === 'off') await endShow(tx, notices, show, 'stream-ended');
      else await endSeat(tx, notices, show, seat, outcome.why === 'gone' ? 'gone' : 'balance', skin);
    });
    return 'ended';
  }

  return {
    async offerOf(userId: number, skin: string): Promise<ShowOffer> {
      return toOffer(await offerRow(userId), spyInSkin(skin));
    },

    async saveOffer(userId: number, input: ShowOfferInput): Promise<ShowOffer> {
      const values = {
        privatePrice: input.private_price, groupPrice: input.group_price, groupMinTickets: input.group_min_tickets,
        spyPrice: input.spy_price, minMinutes: input.min_minutes, updatedAt: new Date(),
      };
      const [row] = await db.insert(showOffers).values({ userId, ...values })
        .onConflictDoUpdate({ target: showOffers.userId, set: values }).returning();
      return toOffer(row!, true);
    },

    /** The stream's show, its broadcaster's offer, and the caller's seat. */
    async showOf(streamId: number, viewer: Viewer) {
      const stream = await deps.streamAccess.lookup(streamId, viewer);
      const [offer, show, mine] = await Promise.all([
        offerRow(stream.userId),
        openShow(db, streamId),
        viewer.principal ? seatOn(db, streamId, viewer.principal.userId) : Promise.resolve(null),
      ]);
      return {
        offer: toOffer(offer, spyInSkin(stream.skin)),
        show: await publicOf(db, show, stream.skin),
        seat: mine ? toSeat(mine.seat, mine.show) : null,
      };
    },

    async join(principal: Principal, viewer: Viewer, streamId: number, as: 'private' | 'group' | 'spy'): Promise<ShowSeat> {
      const stream = await deps.streamAccess.lookup(streamId, viewer);
      if (stream.userId === principal.userId) throw forbidden(MSG.cannotJoinOwnShow);
      if (!stream.live) throw conflict(MSG.showNeedsLive);
      if (as === 'private') return joinPrivate(principal, stream);
      if (as === 'group') return joinGroup(principal, stream);
      return joinAsSpy(principal, stream);
    },

    /** The viewer's page is still open: their seat stays billed. Answers their seat (ended ones say why). */
    async here(userId: number, streamId: number): Promise<ShowSeat | null> {
      await db.update(showSeats).set({ seenAt: new Date() })
        .where(and(eq(showSeats.userId, userId), ne(showSeats.state, 'ended'),
          inArray(showSeats.showId, db.select({ id: shows.id }).from(shows).where(and(eq(shows.streamId, streamId), ne(shows.state, 'ended'))))));
      const mine = await seatOn(db, streamId, userId);
      if (!mine) throw notFound(MSG.showUnknown);
      return toSeat(mine.seat, mine.show);
    },

    async leave(userId: number, streamId: number): Promise<ShowSeat | null> {
      const stream = await deps.streamReads.findStream(streamId);
      return changing(streamId, async (tx, notices) => {
        const open = await openSeatOf(tx, streamId, userId);
        if (!open) throw notFound(MSG.showUnknown);
        await endSeat(tx, notices, open.show, open.seat, open.seat.state === 'waiting' ? 'cancelled' : 'left', stream.skin);
        const after = await seatOf(tx, open.show.id, userId);
        return toSeat(after!, open.show);
      });
    },

    /** The broadcaster's panel: requests waiting, the show on and its seats. */
    async panel(principal: Principal, streamId: number) {
      const stream = await deps.streamReads.ownStream(streamId, principal);
      const requested = await db.select({ show: shows }).from(shows)
        .where(and(eq(shows.streamId, streamId), eq(shows.state, 'requested'))).orderBy(asc(shows.createdAt));
      const show = await openShow(db, streamId);
      const seats = show ? await db.select().from(showSeats).where(eq(showSeats.showId, show.id)).orderBy(asc(showSeats.id)) : [];
      const people = await deps.accounts.publicUsers([...requested.map((r) => r.show.requestedBy!), ...seats.map((s) => s.userId)]);
      const nameOf = (id: number) => { const u = people.get(id); return u ? u.fullname || u.username : ''; };
      return {
        requests: requested.map(({ show: r }) => ({
          show_id: r.id, user_id: r.requestedBy!, name: nameOf(r.requestedBy!), avatar: people.get(r.requestedBy!)?.avatar ?? null,
          requested_time: r.createdAt.toISOString(),
        })),
        show: await publicOf(db, show, stream.skin),
        seats: seats.map((s) => ({ user_id: s.userId, name: nameOf(s.userId), role: s.role, state: s.state, minutes_billed: s.minutesBilled, coins_paid: s.coinsPaid })),
      };
    },

    async answer(principal: Principal, streamId: number, showId: number, accept: boolean): Promise<PublicShow | null> {
      const stream = await deps.streamReads.ownStream(streamId, principal);
      const [asked] = await db.select().from(shows).where(and(eq(shows.id, showId), eq(shows.streamId, streamId)));
      if (!asked) throw notFound(MSG.showUnknown);
      if (accept) await gather(asked.requestedBy!);
      return changing(streamId, async (tx, notices) => {
        const [show] = await tx.select().from(shows).where(eq(shows.id, showId));
        if (show!.state !== 'requested') throw conflict(MSG.showRequestAnswered);
        if (!accept) {
          await endShow(tx, notices, show!, 'declined');
          return publicOf(tx, await openShow(tx, streamId), stream.skin);
        }
        if (!stream.live) throw conflict(MSG.showNeedsLive);
        const open = await openShow(tx, streamId);
        if (open?.state === 'live') throw conflict(MSG.showAlreadyOn);
        if (open) await endShow(tx, notices, open, 'replaced');
        const [live] = await tx.update(shows).set({ state: 'live', startedAt: new Date() }).where(eq(shows.id, showId)).returning();
        const buyer = (await seatOf(tx, showId, show!.requestedBy!))!;
        const outcome = await startSeat(tx, notices, live!, buyer, stream.skin);
        if (!outcome.paid) return null;
        const others = await tx.select().from(shows).where(and(eq(shows.streamId, streamId), eq(shows.state, 'requested')));
        for (const other of others) await endShow(tx, notices, other, 'replaced');
        const shown = await publicOf(tx, live!, stream.skin);
        notices.show(streamId, shown);
        return shown;
      });
    },

    async openGroup(principal: Principal, streamId: number): Promise<PublicShow> {
      const stream = await deps.streamReads.ownStream(streamId, principal);
      if (!stream.live) throw conflict(MSG.showNeedsLive);
      const offer = await offerRow(stream.userId);
      if (offer.groupPrice <= 0) throw conflict(MSG.groupShowsOff);
      return changing(streamId, async (tx, notices) => {
        const open = await openShow(tx, streamId);
        if (open) {
          if (open.kind === 'group') return (await publicOf(tx, open, stream.skin))!;
          throw conflict(MSG.showAlreadyOn);
        }
        const [show] = await tx.insert(shows).values({
          streamId, broadcasterId: stream.userId, kind: 'group', state: 'gathering', pricePerMinute: offer.groupPrice,
          minMinutes: offer.minMinutes, minTickets: offer.groupMinTickets,
        }).returning();
        const shown = (await publicOf(tx, show!, stream.skin))!;
        notices.show(streamId, shown);
        return shown;
      });
    },

    async end(principal: Principal, streamId: number): Promise<boolean> {
      await deps.streamReads.ownStream(streamId, principal);
      return changing(streamId, async (tx, notices) => {
        const show = await openShow(tx, streamId);
        if (!show) return false;
        if (show.state === 'live' && show.startedAt) {
          const run = minutesRun(show.startedAt, new Date(), deps.minuteMs);
          if (run < show.minMinutes) throw conflict(fill(MSG.showMinimumPromised, { minutes: show.minMinutes, left: show.minMinutes - run }));
        }
        await endShow(tx, notices, show, show.state === 'live' ? 'broadcaster' : 'cancelled');
        return true;
      });
    },

    /** The broadcast ended: so did its shows and requests. */
    async streamEnded(streamId: number): Promise<void> {
      await changing(streamId, async (tx, notices) => {
        const open = await tx.select().from(shows).where(and(eq(shows.streamId, streamId), ne(shows.state, 'ended')));
        for (const show of open) await endShow(tx, notices, show, show.state === 'requested' ? 'expired' : 'stream-ended');
      });
    },

    /** One run of the billing job: every seat whose paid minute is over pays the next, or ends; requests unanswered too long expire. */
    async bill(): Promise<{ paid: number; ended: number }> {
      const counts = { paid: 0, ended: 0 };
      const due = await billing.claimDue(BILLING_BATCH, BILLING_LEASE_MS);
      await inParallel(due, BILLING_WIDTH, async (item) => {
        const result = await billSeat(item);
        if (result !== 'skipped') counts[result]++;
      });
      await expireRequests();
      return counts;
    },

    billSeat,

    /**
     * The stretches no playlist of the stream gives any more: each show that was on and ended, a second
     * before its start to two after its end (what the encoder sent as it was accepted or ended). Kept a
     * moment per stream: every playlist fetch asks.
     */
    async keptOut(streamId: number): Promise<readonly Period[]> {
      const known = keptOutCache.get(streamId);
      if (known && known.expires > Date.now()) return known.periods;
      const rows = await db.select({ from: shows.startedAt, to: shows.endedAt }).from(shows)
        .where(and(eq(shows.streamId, streamId), eq(shows.state, 'ended'), sql`${shows.startedAt} is not null`));
      const periods = rows.map((row) => ({ from: row.from!.getTime() - KEPT_OUT_BEFORE_MS, to: row.to!.getTime() + KEPT_OUT_AFTER_MS }));
      if (keptOutCache.size >= KEPT_OUT_CACHED) keptOutCache.clear();
      keptOutCache.set(streamId, { expires: Date.now() + KEPT_OUT_CACHE_MS, periods });
      return periods;
    },

    /** Whether the viewer may see the stream's video as far as its shows go (the playback gate asks). */
    async admission(streamId: number, viewerId: number | null, graceMs: number): Promise<boolean> {
      const show = await openShow(db, streamId);
      if (!show || show.state !== 'live') return true;
      if (viewerId === null) return false;
      const [seat] = await db.select({ paidUntil: showSeats.paidUntil }).from(showSeats)
        .where(and(eq(showSeats.showId, show.id), eq(showSeats.userId, viewerId), eq(showSeats.state, 'active')));
      return Boolean(seat?.paidUntil && seat.paidUntil.getTime() + graceMs > Date.now());
    },
  };

  /** Requests the broadcaster has not answered in time. */
  async function expireRequests(): Promise<void> {
    const stale = await db.select().from(shows)
      .where(and(eq(shows.state, 'requested'), sql`${shows.createdAt} < now() - make_interval(secs => ${SHOW.requestTtlMs / 1000})`)).limit(BILLING_BATCH);
    for (const show of stale) {
      await changing(show.streamId, async (tx, notices) => {
        const [still] = await tx.select().from(shows).where(eq(shows.id, show.id));
        if (still?.state === 'requested') await endShow(tx, notices, still, 'expired');
      });
    }
  }
}

export type Shows = ReturnType<typeof createShows>;

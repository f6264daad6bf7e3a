/**
 * Private and group shows (our addition, decision 0085): a broadcaster's per-minute prices, a viewer's
 * request, ticket or spy seat, the broadcaster's answers, and the show as each side sees it. Every
 * minute is paid at its start through the ledger; the show's realtime frames are SHOW (the stream's
 * channel), SHOW-SEAT (the viewer's own channel) and SHOW-REQUESTS (the broadcaster's own channel).
 */
import { z } from 'zod';
import { fill, MSG } from '../messages';
import { SEAT_END_REASONS, SEAT_ROLES, SHOW, SHOW_KINDS } from '../rules/shows';
import { defineCall, success } from './define';
import { flag, numeric, oneOf, userId } from './fields';
import { streamId } from './streams';

const price = numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole).min(0, MSG.tipPositive)
  .max(SHOW.priceMax, fill(MSG.showPriceMax, { max: SHOW.priceMax })));

/** What a broadcaster offers: coins a minute (0: not offered) and the minutes a show runs at least. */
export const showOffer = z.object({
  private_price: z.number(),
  group_price: z.number(),
  group_min_tickets: z.number(),
  /** 0 where the viewer's skin has no spy mode. */
  spy_price: z.number(),
  min_minutes: z.number(),
});
export type ShowOffer = z.infer<typeof showOffer>;

export const showOfferInput = z.strictObject({
  private_price: price,
  group_price: price,
  group_min_tickets: numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole)
    .min(SHOW.ticketsMin, fill(MSG.showTicketsRange, { min: SHOW.ticketsMin, max: SHOW.ticketsMax }))
    .max(SHOW.ticketsMax, fill(MSG.showTicketsRange, { min: SHOW.ticketsMin, max: SHOW.ticketsMax }))),
  spy_price: price,
  min_minutes: numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole).min(0, MSG.tipPositive)
    .max(SHOW.minMinutesMax, fill(MSG.showMinutesMax, { max: SHOW.minMinutesMax }))),
}).refine((offer) => offer.spy_price === 0 || offer.spy_price < offer.private_price, { message: MSG.spyCostsLess, path: ['spy_price'] });
export type ShowOfferInput = z.infer<typeof showOfferInput>;

/** A show as anyone watching the stream sees it. */
export const publicShow = z.object({
  show_id: z.number(),
  stream_id: z.number(),
  kind: z.enum(SHOW_KINDS),
  state: z.enum(['gathering', 'live']),
  price_per_minute: z.number(),
  /** Coins a minute to watch a private show as a spy; null when spying is not offered to this viewer. */
  spy_price: z.number().nullable(),
  min_minutes: z.number(),
  /** Group shows: tickets bought, and the number that starts the show. */
  tickets: z.number(),
  min_tickets: z.number(),
  started_time: z.iso.datetime().nullable(),
});
export type PublicShow = z.infer<typeof publicShow>;

/** A viewer's own place in a show. */
export const showSeat = z.object({
  show_id: z.number(),
  stream_id: z.number(),
  kind: z.enum(SHOW_KINDS),
  role: z.enum(SEAT_ROLES),
  /** waiting: asked (private) or holding a ticket (group) until the show starts. */
  state: z.enum(['waiting', 'active', 'ended']),
  price_per_minute: z.number(),
  minutes_billed: z.number(),
  coins_paid: z.number(),
  paid_until: z.iso.datetime().nullable(),
  end_reason: z.enum(SEAT_END_REASONS).nullable(),
});
export type ShowSeat = z.infer<typeof showSeat>;

const showSeatOut = success({ seat: showSeat.nullable() });

export const getShowOffer = defineCall({
  method: 'GET',
  path: '/api/streams/show-offer',
  refusals: [404],
  summary: "A broadcaster's show prices in coins a minute (0: not offered) and the minimum minutes",
  input: z.strictObject({ user_id: userId }),
  output: success({ offer: showOffer }),
});

export const saveShowOffer = defineCall({
  method: 'POST',
  path: '/api/streams/save-show-offer',
  summary: "The caller's show prices: private and group coins a minute, the tickets that start a group show, the spy price (below the private one), the minimum minutes",
  input: showOfferInput.meta({ examples: [{ private_price: 60, group_price: 20, group_min_tickets: 3, spy_price: 20, min_minutes: 5 }] }),
  output: success({ offer: showOffer }),
});

export const streamShow = defineCall({
  method: 'GET',
  path: '/api/streams/show',
  refusals: [404],
  summary: "A stream's show now (null: none), its broadcaster's offer, and the caller's own place in it",
  input: z.strictObject({ id: streamId }),
  output: success({ offer: showOffer, show: publicShow.nullable(), seat: showSeat.nullable() }),
});

export const JOIN_AS = ['private', 'group', 'spy'] as const;

export const joinShow = defineCall({
  method: 'POST',
  path: '/api/streams/join-show',
  refusals: [402, 403, 404, 409],
  summary: "Ask for a private show (the broadcaster answers), buy a group show's ticket, or spy on a private show; the wallet must hold the minimum minutes, each minute is paid at its start",
  input: z.strictObject({ stream_id: streamId, as: z.enum(JOIN_AS, { error: oneOf(JOIN_AS) }) })
    .meta({ examples: [{ stream_id: 42, as: 'private' }] }),
  output: showSeatOut,
});

export const showHere = defineCall({
  method: 'POST',
  path: '/api/streams/show-here',
  refusals: [404],
  summary: `The page of a viewer in a show says they still watch (every ${SHOW.hereEveryMs / 1000} s); one not heard from for ${SHOW.goneAfterMs / 1000} s is not billed again`,
  input: z.strictObject({ stream_id: streamId }),
  output: showSeatOut,
});

export const leaveShow = defineCall({
  method: 'POST',
  path: '/api/streams/leave-show',
  refusals: [404],
  summary: 'The viewer withdraws a request or ticket, or leaves the show: no further minute is billed',
  input: z.strictObject({ stream_id: streamId }),
  output: showSeatOut,
});

/** Someone who asked for a private show, as the broadcaster sees them. */
export const showRequest = z.object({
  show_id: z.number(),
  user_id: z.number(),
  name: z.string(),
  avatar: z.string().nullable(),
  requested_time: z.iso.datetime(),
});

/** A seat of the show now, as the broadcaster sees it. */
export const ownerSeat = z.object({
  user_id: z.number(),
  name: z.string(),
  role: z.enum(SEAT_ROLES),
  state: z.enum(['waiting', 'active', 'ended']),
  minutes_billed: z.number(),
  coins_paid: z.number(),
});

export const showRequests = defineCall({
  method: 'GET',
  path: '/api/streams/show-requests',
  refusals: [404],
  summary: "The owner's show panel: private show requests waiting for an answer, the show now and its seats",
  input: z.strictObject({ id: streamId }),
  output: success({ requests: z.array(showRequest), show: publicShow.nullable(), seats: z.array(ownerSeat) }),
});

export const answerShowRequest = defineCall({
  method: 'POST',
  path: '/api/streams/answer-show-request',
  refusals: [402, 404, 409],
  summary: "The owner accepts (the requester's first minute is paid and the stream goes private) or declines a private show request",
  input: z.strictObject({
    stream_id: streamId,
    show_id: numeric(z.number({ error: MSG.mustBeShowId }).int(MSG.mustBeShowId).positive(MSG.mustBeShowId)),
    accept: flag,
  }).meta({ examples: [{ stream_id: 42, show_id: 7, accept: true }] }),
  output: success({ show: publicShow.nullable() }),
});

export const openGroupShow = defineCall({
  method: 'POST',
  path: '/api/streams/open-group-show',
  refusals: [404, 409],
  summary: 'The owner puts a group show on sale: it starts when its tickets reach the number in the offer',
  input: z.strictObject({ stream_id: streamId }),
  output: success({ show: publicShow }),
});

export const endShow = defineCall({
  method: 'POST',
  path: '/api/streams/end-show',
  refusals: [404, 409],
  summary: 'The owner ends the show on now (not before its minimum minutes), or calls off a group show still selling tickets',
  input: z.strictObject({ stream_id: streamId }),
  output: success({ ended: z.boolean() }),
});

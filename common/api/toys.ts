/**
 * Toy-device access (spec part 2 §2 screen 12, §3 Device-access record, §4 Toy-device access, §6, §7 Toy
 * device, §9; decision 0020): a broadcaster grants one viewer remote control of their connected toy for
 * a tip. The spec's two calls keep their paths and fields (`lovense-action` with its eight events,
 * `lovense-token`); the device's status is the caller's own (`lovense-device`).
 *
 * Where it happens — `stream_id` with `room`: a live stream (`room` "stream", the default; its owner
 * is the broadcaster, its signed-in watchers the viewers) or a meeting (`room` "meeting": meetings use
 * their id as `stream_id`; the host is the broadcaster, the invitees who are not kicked the viewers).
 *
 * Everything that changes is pushed by the server to both sides on their `user:<id>` channels
 * (common/realtime.ts: `lovense-access`, `lovense-app-connection`, `lovense-add-device-request`,
 * `lovense-viewer-end-call`, `lovense-command`); a page never has to poll, though it reads the records
 * again on load (GET_LOVENSE_LIST for the broadcaster, GET_LOVENSE for the viewer).
 *
 * The state machine (access, and what each side's page shows):
 *
 * | event (who)                    | from                         | to                                   |
 * |--------------------------------|------------------------------|--------------------------------------|
 * | GET_QR_CODE (broadcaster)      | none, NONE, DECLINE, REVOKE, INIT | INIT, then PENDING once the QR is made (INIT stays if the provider failed: 502 'Failed to Generate QR.') |
 * | REGENERATE_QR_CODE (broadc.)   | INIT, PENDING, APPROVED      | a new QR; INIT becomes PENDING       |
 * | PAID_TIP_SUCCESS (the viewer)  | PENDING; APPROVED with a tip request, for the `tip_amount` shown | APPROVED (the tip committed in the ledger first) |
 * | PAID_TIP_REQUEST (broadcaster) | APPROVED                     | APPROVED with `requested_tip`        |
 * | DECLINE_REQUEST (the viewer)   | INIT, PENDING, APPROVED      | DECLINE                              |
 * | REVOKE_ACCESS (broadcaster)    | INIT, PENDING, APPROVED      | REVOKE                               |
 * | GET_LOVENSE (both)             | —                            | — (reads one record, or null)        |
 * | GET_LOVENSE_LIST (broadcaster) | —                            | — (reads the room's records)         |
 *
 * Anything else is refused (409, "This cannot be done while device access is …"). At most one viewer
 * holds INIT, PENDING or APPROVED access in a room at a time (409 'Another viewer has device access…').
 * Host-only events answer a viewer 403, viewer events answer anyone but that viewer 403, and a signed-in
 * user outside the room 404.
 */
import { z } from 'zod';
import { TOY } from '../constants';
import { fill, MSG } from '../messages';
import { TOY_COMMAND_NAMES } from '../rules/toys';
import { defineCall, success } from './define';
import { flag, numeric, oneOf, userId } from './fields';

/** The spec's eight events of `lovense-action` (part 2 §7). */
export const LOVENSE_EVENTS = [
  'GET_QR_CODE', 'REGENERATE_QR_CODE', 'DECLINE_REQUEST', 'PAID_TIP_SUCCESS', 'GET_LOVENSE', 'GET_LOVENSE_LIST', 'REVOKE_ACCESS', 'PAID_TIP_REQUEST',
] as const;
export type LovenseEvent = (typeof LOVENSE_EVENTS)[number];

/** The access of a record (part 2 §3). NONE: never asked (a record is then absent: GET_LOVENSE answers null). */
export const TOY_ACCESS_STATES = ['NONE', 'PENDING', 'INIT', 'APPROVED', 'DECLINE', 'REVOKE'] as const;
export type ToyAccess = (typeof TOY_ACCESS_STATES)[number];
export { OPEN_TOY_ACCESS } from '../rules/toys';

/**
 * What the broadcaster's page shows (part 2 §3, the spec's spelling kept):
 * - NONE: nothing pending (after a decline or revoke, or approved without a connected toy);
 * - SHOW_TIP_PENDING: waiting for the viewer's tip (the access offer or an extra tip request) — the
 *   waiting view 'Waiting for the viewer to accept your request for device control access.';
 * - SHOW_LOVENCE_CONNECTED: the viewer has control and the host's toys are connected;
 * - SHOW_TOY_ADD_PENDING: the viewer found no toy and asked for one — 'Please add compatible Lovense
 *   devices to grant viewer access.'
 */
export const BROADCASTER_STATES = ['NONE', 'SHOW_LOVENCE_CONNECTED', 'SHOW_TOY_ADD_PENDING', 'SHOW_TIP_PENDING'] as const;
export type BroadcasterState = (typeof BROADCASTER_STATES)[number];

/**
 * What the viewer's page shows (the spec names no values; these are ours):
 * - NONE: nothing;
 * - SHOW_ACCESS_OFFER: 'Lovense Device Access Offer' (Decline, Get Access) for `tip_amount`;
 * - SHOW_TIP_REQUEST: 'Additional Tip Request' (Decline, Send Tip) for `requested_tip`;
 * - SHOW_CONTROLS: the device control panel (command buttons and the range slider);
 * - SHOW_DEVICE_NOT_FOUND: 'Device not found' with Request Device (sends `lovense-add-device-request`).
 */
export const VIEWER_STATES = ['NONE', 'SHOW_ACCESS_OFFER', 'SHOW_TIP_REQUEST', 'SHOW_CONTROLS', 'SHOW_DEVICE_NOT_FOUND'] as const;
export type ViewerState = (typeof VIEWER_STATES)[number];

/** Where the access lives: a live stream, or a meeting (whose id is its `stream_id`). */
export const TOY_ROOMS = ['stream', 'meeting'] as const;
export type ToyRoom = (typeof TOY_ROOMS)[number];

/** The toy providers (TOYS): a virtual toy in the host's page, or Lovense's developer API and browser SDK. */
export const TOY_PROVIDERS = ['simulated', 'lovense'] as const;
export type ToyProvider = (typeof TOY_PROVIDERS)[number];

/** The host's Lovense app (or the virtual toy): connected or not (the record's `app_connection_status`). */
export const APP_CONNECTION_STATUSES = ['connected', 'disconnected'] as const;
export type AppConnectionStatus = (typeof APP_CONNECTION_STATUSES)[number];

/** One of the host's toys, as Lovense's app reports it (`name` is its type: lush, max, solace pro…). */
export const toy = z.strictObject({
  id: z.string().trim().min(1).max(64),
  name: z.string().trim().min(1).max(64),
  nickname: z.string().trim().max(64).default(''),
  /** Switched on and paired with the app. */
  online: z.boolean().default(true),
});
export type Toy = z.infer<typeof toy>;

const toyCommand = z.enum(TOY_COMMAND_NAMES, { error: MSG.mustBeToyCommand });

/** The device tip in coins; the server rounds it to a multiple of 5 and clamps it to 10–2000 (common/rules/toys.ts). */
const tipAmount = numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole).min(0, MSG.coinsNumber).max(1_000_000, fill(MSG.coinsAtMost, { max: 1_000_000 })))
  .meta({ description: `Coins: rounded to a multiple of ${TOY.tip.step}, clamped to ${TOY.tip.min}–${TOY.tip.max}` });

/** The tip the viewer was shown, in coins, exactly as shown (no rounding). */
const seenTip = numeric(z.number({ error: MSG.coinsNumber }).int(MSG.coinsWhole).min(1, MSG.coinsAtLeastOne).max(1_000_000, fill(MSG.coinsAtMost, { max: 1_000_000 })));

const streamId = numeric(z.number({ error: MSG.mustBeStreamId }).int(MSG.mustBeStreamId).positive(MSG.mustBeStreamId).max(Number.MAX_SAFE_INTEGER, MSG.mustBeStreamId));
const room = z.enum(TOY_ROOMS, { error: oneOf(TOY_ROOMS) }).default('stream');
const where = { stream_id: streamId, room };

/** The input of `lovense-action`: the spec's fields per event (part 2 §7), with `room`. */
export const lovenseActionInput = z.discriminatedUnion('event', [
  z.strictObject({ event: z.literal('GET_QR_CODE'), ...where, viewer_id: userId, tip_amount: tipAmount }),
  z.strictObject({ event: z.literal('REGENERATE_QR_CODE'), ...where, viewer_id: userId }),
  z.strictObject({ event: z.literal('DECLINE_REQUEST'), ...where, viewer_id: userId.optional() }),
  // The tip the viewer saw and agreed to (the offer's tip_amount or the request's requested_tip): when
  // the host's ask has changed since, nothing moves and the answer is 409 (decision 0038).
  z.strictObject({ event: z.literal('PAID_TIP_SUCCESS'), ...where, tip_amount: seenTip }),
  z.strictObject({ event: z.literal('GET_LOVENSE'), ...where, viewer_id: userId }),
  z.strictObject({ event: z.literal('GET_LOVENSE_LIST'), ...where }),
  z.strictObject({ event: z.literal('REVOKE_ACCESS'), ...where, viewer_id: userId }),
  z.strictObject({ event: z.literal('PAID_TIP_REQUEST'), ...where, viewer_id: userId, tip_amount: tipAmount }),
], { error: oneOf(LOVENSE_EVENTS) });
export type LovenseActionInput = z.input<typeof lovenseActionInput>;
/** The input as the server reads it (numbers parsed, `room` defaulted). */
export type LovenseAction = z.output<typeof lovenseActionInput>;

/** The device-access record (part 2 §3), as each side sees it. */
export const toyAccessRecord = z.object({
  id: z.number(),
  access: z.enum(TOY_ACCESS_STATES),
  broadcaster_state: z.enum(BROADCASTER_STATES),
  broadcaster_id: z.number(),
  viewer_state: z.enum(VIEWER_STATES),
  viewer_id: z.number(),
  /** The viewer, for the host's device-access button (its avatar) and lists. */
  viewer: z.object({ id: z.number(), sname: z.string(), avatar: z.string().nullable() }),
  /** The host's toys now (empty: none connected). */
  data: z.array(toy),
  /** The commands those toys offer (common/rules/toys.ts), in the selector's order. */
  commands: z.array(toyCommand),
  /** The access tip asked (coins). */
  tip_amount: z.number(),
  tip_currency: z.literal('CON'),
  /** Y once the access tip committed. */
  is_tip_paid: z.enum(['Y', 'N']),
  /** An extra tip the broadcaster asked for (PAID_TIP_REQUEST), 0 when none is pending. */
  requested_tip: z.number(),
  /** Coins the viewer paid for this access in all. */
  paid_total: z.number(),
  /**
   * The QR the host's Lovense app scans (`qr`: an image address; `code`: the same as text). Only the
   * broadcaster gets it; the viewer's copy is null.
   */
  qr_data: z.object({ qr: z.string(), code: z.string() }).nullable(),
  stream_id: z.number(),
  room: z.enum(TOY_ROOMS),
  /** The viewer (who receives the offer). */
  receiver_id: z.number(),
  /** The broadcaster (who sent it). */
  sender_id: z.number(),
  /** The skin the request was made in. */
  service: z.string(),
  entry_date: z.string(),
  updated_date: z.string(),
  app_connection_status: z.enum(APP_CONNECTION_STATUSES),
});
export type ToyAccessRecord = z.infer<typeof toyAccessRecord>;

export const lovenseAction = defineCall({
  method: 'POST',
  path: '/api/user/lovense-action',
  summary: 'Toy-device access, one event per call (the record after it is `data`; GET_LOVENSE_LIST answers a list, '
    + 'GET_LOVENSE null when there is none). PAID_TIP_SUCCESS pays the access tip or the extra tip request through '
    + 'the ledger for the `tip_amount` the viewer saw (409 when the host asks another amount now) and needs an Idempotency-Key: '
    + 'a retry with the same key charges nothing again',
  refusals: [402, 403, 404, 409, 429, 502],
  idempotencyKey: 'optional',
  input: lovenseActionInput,
  output: success({
    /** The spec's success text where it has one: 'Access has been revoked.', 'Tip request successfully sent.'. */
    message: z.string().optional(),
    data: z.union([toyAccessRecord, z.array(toyAccessRecord), z.null()]),
    /** After PAID_TIP_SUCCESS: the payer's coins left. */
    balance: z.object({ CON: z.number() }).optional(),
  }),
});

export const lovenseToken = defineCall({
  method: 'GET',
  path: '/api/user/lovense-token',
  summary: "The broadcaster's Lovense auth token for the browser SDK (Lovense's getToken, made with the developer token "
    + 'on the server). `user_id` must be the caller, who must be the broadcaster of the room. With TOYS=simulated the '
    + 'platform is "simulated" and the token opens nothing',
  refusals: [403, 404, 502],
  input: z.strictObject({ user_id: userId, ...where }),
  output: success({ data: z.object({ platform: z.string(), authToken: z.string(), uid: z.string() }) }),
});

export const lovenseStreamViewers = defineCall({
  method: 'GET',
  path: '/api/user/lovense-stream-viewers',
  summary: "The signed-in people watching the broadcaster's live stream now (on every instance), for choosing whom to offer "
    + 'device access; the broadcaster only',
  refusals: [403, 404],
  input: z.strictObject({ stream_id: streamId }),
  output: success({ viewers: z.array(z.object({ user_id: z.number(), name: z.string(), avatar: z.string().nullable() })) }),
});

/** The caller's own device as the server knows it. */
export const toyDevice = z.object({
  provider: z.enum(TOY_PROVIDERS),
  /** Where the browser loads Lovense's SDK from (TOYS=lovense), null for the simulated toy. */
  sdk_url: z.string().nullable(),
  connected: z.boolean(),
  app_connection_status: z.enum(APP_CONNECTION_STATUSES),
  toys: z.array(toy),
  commands: z.array(toyCommand),
  /** The simulated toy's last level per command (what the virtual toy shows), as this server instance last set it. */
  levels: z.record(z.string(), z.number()),
  updated_date: z.string().nullable(),
});
export type ToyDevice = z.infer<typeof toyDevice>;

export const getLovenseDevice = defineCall({
  method: 'GET',
  path: '/api/user/lovense-device',
  summary: "The caller's toy device: the provider, the SDK address, whether the app (or the virtual toy) is connected and its toys",
  input: z.strictObject({}),
  output: success({ data: toyDevice }),
});

export const setLovenseDevice = defineCall({
  method: 'POST',
  path: '/api/user/lovense-device',
  summary: "The host's page reports its device: the virtual toy switched on or off (simulated), or the Lovense app's "
    + 'connection as the browser SDK sees it. A change goes to the viewers holding access as `lovense-app-connection`, '
    + 'and again 3 s later. With TOYS=lovense the toys come from the Lovense app callback and `toys` here is ignored',
  input: z.strictObject({
    connected: flag,
    /** The simulated toy's toys (default one Lush): the commands offered follow them. */
    toys: z.array(toy).max(10).optional(),
  }),
  output: success({ data: toyDevice }),
});

/** The Lovense app's callback (Lovense's documented shape), at `LOVENSE_CALLBACK_PATH`; verified by its `utoken`. */
export const LOVENSE_CALLBACK_PATH = '/api/lovense/callback';

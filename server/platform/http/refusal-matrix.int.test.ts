/**
 * The refusal matrix: every HTTP route of the route table and every realtime operation, called as
 * each caller of `access.ts` (anonymous, a plain user, the owner of the object, another user, a
 * moderator, an admin, and a holder of each permission the route names), and the answer checked
 * against the access declared next to the route. A route or operation without a declaration, or
 * without a way to call it here, fails the suite.
 *
 * `ok` means answered (2xx, or a browser route's redirect): every call is given a valid input (the
 * OpenAPI example or an empty one, else the case below), checked against the call's schema first,
 * so a 400 can never pass for an answer. A refusal must carry its exact status and the envelope.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from '../../../common/api';
import type { CallDef } from '../../../common/api/define';
import { ERRORS, type ErrorCode } from '../../../common/errors';
import { fill, MSG } from '../../../common/messages';
import { DEFAULT_PERMISSIONS, type Permission } from '../../../common/permissions';
import { startTestApp, type TestApp, type TestUser } from '../../testing/harness';
import { eventually } from '../../testing/eventually';
import { startTestOidcProvider, type TestOidcProvider } from '../../testing/oidc-provider';
import { HttpSession, type HttpResponse, type Transport } from '../../testing/http-session';
import { multipartFile } from '../../testing/multipart';
import { UPLOADS_PATH } from '../../../common/api/posts';
import { publishImagePost, startUpload, testPicture, uploadFile } from '../../testing/uploads';
import { resolveFfmpegPath } from '../media/ffmpeg-path';
import { WsClient } from '../../testing/ws-client';
import { openUpgrade } from '../../testing/ws-upgrade';
import { BROWSER_BROADCAST_PATH } from '../../../common/browser-broadcast';
import { createHash, randomBytes } from 'node:crypto';
import { socialIdentities, socialTickets } from '../../modules/accounts/tables';
import { systemMessages } from '../../modules/system/tables';
import { payments } from '../../modules/wallet/tables';
import { planCheckouts } from '../../modules/subscriptions/tables';
import { loadSecret } from '../secrets';
import { earningCreator, TEST_BANK_ACCOUNT } from '../../testing/payouts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../modules/wallet/payment-provider';
import { SANDBOX_WEBHOOK_SECRET } from '../../modules/wallet/routes';
import { CALLERS, MODERATOR_PERMISSIONS, type Access, type Caller, type Outcome } from './access';
import type { RouteRecord } from './route-table';
import { segmentPath } from '../../testing/hls';

let t: TestApp;
let baseUrl: string;
/** The social providers' stand-in, so their start and callback routes are offered. */
let idp: TestOidcProvider;

/** A LibreTranslate stand-in: the translate call is answered, so only its access rule can refuse. */
const translator: Server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ translatedText: 'Hello everyone' }));
  });
});

// ---------------------------------------------------------------------------------------------
// Callers. Each session has its own client address, so the per-address sign-in and sign-up limits
// of the product are not what the matrix measures.

let addresses = 0;
const nextAddress = () => {
  addresses += 1;
  return `10.77.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

function session(): HttpSession {
  const remoteAddress = nextAddress();
  const transport: Transport = async ({ method, url, headers, body }) => {
    const res = await t.app.inject({ method, url, headers, payload: body, remoteAddress });
    return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
  };
  return new HttpSession(transport);
}

async function signIn(user: TestUser): Promise<HttpSession> {
  return session().signIn(user.username, user.password);
}

interface Person {
  user: TestUser;
  client: HttpSession;
}

async function person(options: Parameters<TestApp['given']['user']>[0] = {}, coins = 5000): Promise<Person> {
  const user = await t.given.user(options);
  if (coins > 0) await t.given.coins(user, coins);
  return { user, client: await signIn(user) };
}

/** The shared world: the owner's live stream and the people around it. */
interface World {
  owner: Person & { streamId: number; avatar: string };
  /** A broadcaster whose live stream asks 100 coins of its viewers. */
  paid: Person & { streamId: number };
  user: Person;
  other: Person;
  moderator: Person;
  admin: Person;
  holders: Map<Permission, Person>;
  victim: Person;
  interestIds: number[];
  coinPackageId: number;
  impressionPackageId: number;
  /** A recurring coin package of the plain user's, for support's update call. */
  coinSubscriptionId: number;
  /** The Fan plan template, a plan of the owner's and of the victim's, and the owner's subscription to the victim. */
  fanTemplateId: number;
  victimPlanId: number;
  ownerSubscriptionId: number;
  channelId: number;
  systemMessageId: number;
  /** The owner's public image post, a paid one (100 coins), a comment of the owner's, and a ready video post. */
  postId: number;
  paidPostId: number;
  commentId: number;
  videoPostId: number;
  /** A meeting the owner hosts with `other` (a follower, who paid the meeting tip) invited, and an ended one. */
  meetingId: number;
  endedMeetingId: number;
  /** An administrator's banner offer, attached to a free live stream whose owner is none of the callers (ads are presented only to viewers who may play the stream). */
  adOfferId: number;
  adStreamId: number;
}
let world: World;

async function holder(perm: Permission): Promise<Person> {
  let found = world.holders.get(perm);
  if (!found) {
    found = await person({ perms: [...new Set([...DEFAULT_PERMISSIONS, perm])] });
    world.holders.set(perm, found);
  }
  return found;
}

/** A new broadcaster with a stream of their own (for calls that delete or end it). */
async function freshOwner(): Promise<Person & { streamId: number }> {
  const owner = await person({}, 0);
  const own = await owner.client.post('/api/streams/get-live-stream', {});
  return { ...owner, streamId: (own.body.stream as { stream_id: number }).stream_id };
}

// ---------------------------------------------------------------------------------------------
// One cell: who calls, about which object.

type Role = Caller | Permission;

interface Cell {
  role: Role;
  /** The caller's session (a fresh, cookie-less one for anonymous). */
  client: HttpSession;
  /** The caller's account, null for anonymous. */
  me: TestUser | null;
  /** The object's owner (the shared owner unless the case makes a fresh one). */
  owner: Person & { streamId: number };
}

interface Case {
  /** The input (query for GET, body otherwise); default: the OpenAPI example, else `{}`. */
  input?: (cell: Cell) => unknown;
  /** The object is consumed by the call (deleted, ended, signed out): a new owner per cell. */
  freshOwner?: boolean;
  /** The object is the stream with a price (tip_viewer_min_amount above 0) rather than the free one. */
  paidStream?: boolean;
  /** The call ends or replaces the caller's session: the caller signs in again for it. */
  freshSession?: boolean;
  /**
   * An answer past the access rule that the test app cannot go beyond (no encoder, no ffmpeg): an
   * `ok` cell answering exactly this passed its access check, and is reported as not proven further.
   */
  stopsShort?: { status: number; message: string; why: string };
  /** A route outside the contract, called its own way. */
  send?: (cell: Cell) => Promise<HttpResponse<unknown>>;
}

const id = (cell: Cell) => cell.me?.id ?? world.victim.user.id;
let serial = 0;
const unique = (prefix: string) => `${prefix}${process.pid}m${(serial += 1)}`;

const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2040, cvc: '123', name: 'Matrix Tester' };

/** A user only the recovery calls touch: a reset ends their sessions, a send may be limited per account. */
async function recoveryTarget(): Promise<TestUser> {
  return t.given.user();
}

async function recoveryCode(user: TestUser): Promise<string> {
  const sent = await session().post('/api/user/send-recovery-code', { username: user.username });
  if (sent.status !== 200) throw new Error(`send-recovery-code: ${sent.status} ${JSON.stringify(sent.body)}`);
  const mail = await world.admin.client.get('/api/dev/outbox', { to: user.email, limit: 1 });
  const text = String((mail.body.messages as Array<{ text: string }>)[0]?.text ?? '');
  const code = /\b(\d{6})\b/.exec(text)?.[1];
  if (!code) throw new Error(`no recovery code in ${text}`);
  return code;
}

/** A monthly Fan plan of the creator's (150 coins). */
async function fanPlanOf(creator: Person): Promise<number> {
  const res = await creator.client.post('/api/subscription/plan-add', { template_id: world.fanTemplateId, price: 150, currency: 'CON' });
  if (res.status !== 200) throw new Error(`plan-add: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.plan as { plan_id: number }).plan_id;
}

/** A 7-day free trial on a new monthly Fan plan of the creator's (decision 0089): its link's code and id. */
async function trialOfferOf(creator: Person): Promise<{ code: string; offerId: number }> {
  const res = await creator.client.post('/api/subscription/offer-add', { plan_id: await fanPlanOf(creator), kind: 'trial', days: 7 });
  if (res.status !== 200) throw new Error(`offer-add: ${res.status} ${JSON.stringify(res.body)}`);
  const offer = res.body.offer as { code: string; offer_id: number };
  return { code: offer.code, offerId: offer.offer_id };
}

/** A 2-second clip (ffmpeg's test picture) published as the owner's video post; answers its id. */
async function publishVideoPost(client: HttpSession): Promise<number> {
  const clip = path.join(t.resources.config.dataDir, 'matrix-clip.mov');
  execFileSync(resolveFfmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip]);
  const upload = await uploadFile(client, readFileSync(clip), 'clip.mov', 'video/quicktime');
  const res = await client.post('/api/post/create', { type: 'video', title: 'Matrix film', audience: 'public', upload_ids: [upload] });
  if (res.status !== 200) throw new Error(`video post: ${res.status} ${JSON.stringify(res.body)}`);
  return Number(res.body.post_id);
}

async function videoReady(postId: number): Promise<void> {
  const state = async () => ((await world.owner.client.get('/api/post/post-lookup', { id: postId })).body.post as { state: string }).state;
  if ((await eventually(state, (s) => s === 'ready', 60_000, 250)) !== 'ready') throw new Error('the matrix video did not become ready');
}

/** One media address of a post as the caller gets it (the caller's own signature). */
async function mediaUrl(c: Cell, postId: number, pick: (media: { url: string; thumb_url: string }) => string): Promise<string> {
  const res = await c.client.get('/api/post/post-lookup', { id: postId });
  const media = (res.body.post as { media: Array<{ url: string; thumb_url: string }> } | undefined)?.media[0];
  if (!media) throw new Error(`no media for ${c.role}: ${res.status} ${JSON.stringify(res.body)}`);
  return pick(media);
}

/** The caller's own new upload of 10 bytes (null when the caller may not upload). */
async function ownUpload(c: Cell): Promise<string> {
  const { id } = await startUpload(c.client, 10, { filename: 'ten.bin' });
  return id ?? 'not-created';
}

const TUS_HEADERS = { 'tus-resumable': '1.0.0' };

/** The subscriber's new subscription to the victim's Fan plan (coins given for it). */
async function subscriptionOf(subscriber: Person, autoRenew = true): Promise<number> {
  await t.given.coins(subscriber.user, 150);
  const res = await subscriber.client.request('POST', '/api/subscription/subscribe', {
    body: { plan_id: world.victimPlanId, user_id: world.victim.user.id, auto_renew: autoRenew }, headers: { 'idempotency-key': unique('subscribe') },
  });
  if (res.status !== 200) throw new Error(`subscribe: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.subscription as { subscription_id: number }).subscription_id;
}

/** The meeting form's fields: `other` invited, an hour ahead. */
const meetingFields = (inviteeId: number) => ({
  audience: 'PRIVATE', audience_ids: String(inviteeId), title: 'Matrix call', start_time: new Date(Date.now() + 3_600_000).toISOString(),
});

/** A new meeting the owner hosts with `other` invited (for calls that end, delete or kick). */
async function meetingOf(): Promise<number> {
  const res = await world.owner.client.post('/api/user/create-meeting', meetingFields(world.other.user.id));
  if (res.status !== 200) throw new Error(`create-meeting: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as { meeting_id: number }).meeting_id;
}

const OFFER_FIELDS = { name: 'Matrix offer', short_description: 'Seen by the matrix', type: 'BANNER', rating: 'G', ad_link: 'https://shop.example/matrix', commission: { impression: 1, click: 1, complete: 0 } };

/** A new banner offer of the administrator's, its campaign funded (an unfunded offer is never presented). */
async function adminOffer(): Promise<number> {
  const upload = await uploadFile(world.admin.client, await testPicture(), 'banner.png', 'image/png');
  const res = await world.admin.client.post('/api/ads/offer-create', { ...OFFER_FIELDS, upload_id: upload });
  if (res.status !== 200) throw new Error(`offer-create: ${res.status} ${JSON.stringify(res.body)}`);
  const id = (res.body.offer as { id: number }).id;
  await t.given.coins(world.admin.user, 1000);
  const funded = await world.admin.client.request('POST', '/api/ads/offer-fund', { body: { id, coins: 500 }, headers: { 'idempotency-key': unique('fund') } });
  if (funded.status !== 200) throw new Error(`offer-fund: ${funded.status} ${JSON.stringify(funded.body)}`);
  return id;
}

/** The caller's upload of a picture, or an id that is none when the caller may not upload. */
const pictureUpload = (c: Cell) => testPicture().then((png) => uploadFile(c.client, png, 'banner.png', 'image/png')).catch(() => 'not-uploaded');

/** The paid stream's offer as presented to the caller (signed for them). */
async function presentedAd(c: Cell): Promise<{ impression_id: string; thumbnail: string }> {
  const res = await c.client.get('/api/ads/offer-presentation', { stream_id: world.adStreamId, type: 'BANNER' });
  const offer = res.body.offer as { impression_id: string; thumbnail: string } | null;
  if (!offer) throw new Error(`no offer presented to ${c.role}: ${res.status} ${JSON.stringify(res.body)}`);
  return offer;
}

let ownersEmoteUrl: Promise<string> | undefined;
/** The address of an emote the owner uploaded once for the matrix. */
function ownersEmote(): Promise<string> {
  ownersEmoteUrl ??= (async () => {
    const file = multipartFile('file', 'emote.png', 'image/png', avatarPng);
    const res = await world.owner.client.request('POST', `/api/streams/upload-emote?code=matrix${randomBytes(4).toString('hex')}`, { rawBody: file.body, headers: { 'content-type': file.contentType } });
    if (res.status !== 200) throw new Error(`emote upload: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body.emotes as Array<{ url: string }>)[0]!.url;
  })();
  return ownersEmoteUrl;
}

/** A new creator's open payout request (decision 0061), approved when asked: its id. */
async function openPayout(approved = false): Promise<number> {
  const creator = await earningCreator(t, { matured: 1000 });
  const res = await creator.client.request('POST', '/api/payouts/request', { body: { coins: 1000 }, headers: { 'idempotency-key': unique('payout') } });
  if (res.status !== 200) throw new Error(`payout request: ${res.status} ${JSON.stringify(res.body)}`);
  const id = (res.body.request as { id: number }).id;
  if (approved) await world.admin.client.post('/api/admin/payout-approve', { id });
  return id;
}

/** Inputs per route ("METHOD path"); routes not listed take the default input. */
const CASES: Record<string, Case> = {
  // Payouts (decision 0061): each cell acts on a request of its own.
  'POST /api/payouts/method': { input: () => TEST_BANK_ACCOUNT },
  'POST /api/payouts/schedule': { input: () => ({ schedule: 'off' }) },
  'POST /api/payouts/request': {
    send: (c) => c.client.request('POST', '/api/payouts/request', { body: { coins: 1 }, headers: { 'idempotency-key': unique('payout') } }),
    stopsShort: { status: 400, message: 'A payout is at least 1000 Coins.', why: 'the matrix\'s people have no earnings (payouts.int.test.ts pays creators out)' },
  },
  'POST /api/payouts/cancel': {
    send: async (c) => c.client.post('/api/payouts/cancel', { id: await openPayout() }),
    stopsShort: { status: 404, message: MSG.payoutUnknown, why: 'each cell cancels another creator\'s request, never told to exist (payout-returns.int.test.ts cancels a creator\'s own)' },
  },
  // Stripe Connect (decision 0063): not configured here; stripe-connect.int.test.ts onboards and pays through the stand-in.
  ...Object.fromEntries(['onboarding', 'refresh'].map((step) => [`POST /api/payouts/stripe/${step}`, {
    stopsShort: { status: 404, message: MSG.processorNotConfigured, why: 'Stripe is not configured here (stripe-connect.int.test.ts runs against the stand-in)' },
  }])),
  'POST /api/payouts/webhooks/stripe': {
    send: async (c: Cell) => c.client.request('POST', '/api/payouts/webhooks/stripe', { rawBody: '{}', csrf: false, headers: { 'content-type': 'application/json' } }),
    stopsShort: { status: 404, message: MSG.processorNotConfigured, why: 'not configured here (stripe-connect.int.test.ts posts signed events from the stand-in)' },
  },
  // PayPal Payouts (decision 0064): not configured here; paypal-payouts.int.test.ts onboards and pays through the stand-in.
  'POST /api/payouts/paypal': {
    input: () => ({ email: 'matrix@example.com' }),
    stopsShort: { status: 404, message: MSG.processorNotConfigured, why: 'PayPal payouts are not configured here (paypal-payouts.int.test.ts runs against the stand-in)' },
  },
  'POST /api/payouts/webhooks/paypal': {
    send: async (c: Cell) => c.client.request('POST', '/api/payouts/webhooks/paypal', { rawBody: '{}', csrf: false, headers: { 'content-type': 'application/json' } }),
    stopsShort: { status: 404, message: MSG.processorNotConfigured, why: 'not configured here (paypal-payouts.int.test.ts posts events the stand-in signs)' },
  },
  'POST /api/admin/payout-approve': { send: async (c) => c.client.post('/api/admin/payout-approve', { id: await openPayout() }) },
  'POST /api/admin/payout-reject': { send: async (c) => c.client.post('/api/admin/payout-reject', { id: await openPayout(), reason: 'Matrix' }) },
  'POST /api/admin/payout-mark-failed': {
    send: async (c) => c.client.post('/api/admin/payout-mark-failed', { id: await openPayout(true), reason: 'Matrix' }),
    stopsShort: { status: 409, message: fill(MSG.payoutNotSent, { state: 'approved' }), why: 'the matrix\'s payouts go by bank file, never to a processor (paypal-payouts.int.test.ts marks a stuck one failed)' },
  },
  'POST /api/admin/payouts-export': { send: async (c) => { await openPayout(true); return c.client.post('/api/admin/payouts-export', {}); } },
  'POST /api/admin/payouts-import': { input: () => ({ csv: 'PO-1,paid' }) },
  // The operator console: each cell acts on an object of its own (a new report, a new person, a new message).
  'POST /api/admin/report-action': {
    send: async (c) => {
      const reporter = await t.given.signedInUser();
      const reported = await reporter.client.post('/api/streams/report-stream', { id: world.owner.streamId, type: 'other' });
      if (reported.status !== 200) throw new Error(`report-stream: ${reported.status} ${JSON.stringify(reported.body)}`);
      return c.client.post('/api/admin/report-action', { kind: 'stream', item_id: world.owner.streamId, action: 'DISMISS' });
    },
  },
  'GET /api/admin/user': { input: () => ({ id: world.victim.user.id }) },
  'POST /api/admin/user-suspend': { send: async (c) => c.client.post('/api/admin/user-suspend', { id: (await t.given.user()).id, reason: 'Spam' }) },
  'POST /api/admin/user-lift': { input: () => ({ id: world.victim.user.id }) },
  'POST /api/admin/user-grant': { input: () => ({ id: world.victim.user.id, perm: 'ALLOW REFERRAL_ACCESS' }) },
  'POST /api/admin/user-revoke': { input: () => ({ id: world.victim.user.id, perm: 'ALLOW REFERRAL_ACCESS' }) },
  'POST /api/admin/user-role': { input: () => ({ id: world.victim.user.id, role: 'user' }) },
  'GET /api/admin/user-deposits': { input: () => ({ username: world.victim.user.username }) },
  'POST /api/admin/featured-set': { input: () => ({ stream_id: world.owner.streamId, featured: false }) },
  'POST /api/admin/channel-create': { input: () => ({ name: unique('Matrix channel '), rating: 'G', broadcasters: [world.owner.user.username] }) },
  'POST /api/admin/channel-delete': {
    send: async (c) => {
      const id = await t.app.services.channels.createCustom(world.admin.user.id, { name: unique('Matrix gone '), rating: 'G', broadcasterIds: [world.owner.user.id] });
      return c.client.post('/api/admin/channel-delete', { id });
    },
  },
  'POST /api/admin/system-message-create': {
    input: () => ({ title: 'Matrix notice', content: '<p>later</p>', frequency: 'once', locale: 'en', starts_at: new Date(Date.now() + 86_400_000).toISOString() }),
  },
  'POST /api/admin/system-message-retire': {
    send: async (c) => {
      const [message] = await t.resources.database.db.insert(systemMessages).values({ title: 'Matrix retired', content: '<p>bye</p>' }).returning({ id: systemMessages.id });
      return c.client.post('/api/admin/system-message-retire', { id: message!.id });
    },
  },
  'GET /ajax/tracking/track-event': { input: () => ({ tracker: 'matrix' }) },
  'POST /api/ads/offer-create': { send: async (c) => c.client.post('/api/ads/offer-create', { ...OFFER_FIELDS, upload_id: await pictureUpload(c) }) },
  'POST /api/ads/offer-update': { input: () => ({ id: world.adOfferId, description: unique('seen by the matrix ') }) },
  'POST /api/ads/offer-delete': { send: async (c) => c.client.post('/api/ads/offer-delete', { id: await adminOffer() }) },
  'POST /api/ads/offer-fund': { input: () => ({ id: world.adOfferId, coins: 1 }) },
  'POST /api/ads/offer-withdraw': {
    send: async (c) => {
      const id = await adminOffer();
      await world.admin.client.post('/api/ads/offer-update', { id, paused: true });
      return c.client.request('POST', '/api/ads/offer-withdraw', { body: { id }, headers: { 'idempotency-key': unique('withdraw') } });
    },
  },
  'POST /api/ads/update-stream-offers': { paidStream: true, input: () => ({ offer_ids: [world.adOfferId] }) },
  'GET /api/ads/offer-presentation': { input: () => ({ stream_id: world.adStreamId, type: 'BANNER' }) },
  'POST /api/ads/offer-activity': { send: async (c) => c.client.post('/api/ads/offer-activity', { impression_id: (await presentedAd(c)).impression_id, activity: 'click' }) },
  'GET /api/user/exo-click-tracking': {
    send: async (c) => c.client.request('GET', `/api/user/exo-click-tracking?tracking_id=${encodeURIComponent((await presentedAd(c)).impression_id)}`, { headers: { 'x-csrf-token': await c.client.csrf() } }),
  },
  'POST /api/ads/publisher': { paidStream: true, input: (c) => ({ network: 'limelight', user_id: c.owner.user.id, adunit_id: 1 }) },
  'GET /ads/vast': { send: async (c) => c.client.get('/ads/vast', { stream_id: world.adStreamId }) },
  'GET /ads/track': { send: async (c) => c.client.get('/ads/track', { impression_id: (await presentedAd(c)).impression_id, activity: 'click' }) },
  'GET /media/ads/:offerId/:file': { send: async (c) => c.client.request('GET', (await presentedAd(c)).thumbnail) },
  'GET /api/channel/group': { input: () => ({ id: world.channelId }) },
  'GET /api/channel/list-channel-streams': { input: () => ({ id: world.channelId }) },
  'GET /api/channel/search-stream': { input: () => ({ search: 'Chat' }) },
  'GET /api/channel/search-user': { input: () => ({ search: world.owner.user.username }) },
  'POST /api/streams/add-stream-thumbnail': {
    input: (c) => ({ id: c.owner.streamId }),
    stopsShort: { status: 400, message: MSG.noPictureWhileOffline, why: 'no live video to grab a picture from without an encoder' },
  },
  'POST /api/streams/ban-viewer': { input: (c) => ({ stream_id: c.owner.streamId, user_id: world.victim.user.id }) },
  'POST /api/streams/delete': { freshOwner: true, input: (c) => ({ id: c.owner.streamId }) },
  'POST /api/streams/end-stream': {
    input: (c) => ({ id: c.owner.streamId }),
    stopsShort: { status: 409, message: MSG.streamNotLive, why: 'no encoder publishing to end' },
  },
  'POST /api/streams/go-live': { input: (c) => ({ id: c.owner.streamId }) },
  'GET /api/streams/chat-rules': { input: (c) => ({ user_id: c.owner.user.id }) },
  'POST /api/streams/save-chat-rules': { input: () => ({ slow_mode_seconds: 0, audience: 'everyone', block_links: false, blocked_words: [] }) },
  'POST /api/streams/add-chat-moderator': { input: () => ({ username: world.victim.user.username }) },
  'POST /api/streams/remove-chat-moderator': { input: () => ({ user_id: world.victim.user.id }) },
  'GET /api/streams/chat-moderation': { input: (c) => ({ stream_id: c.owner.streamId }) },
  ...Object.fromEntries(['delete-chat-line', 'approve-chat-line'].map((call) => [`POST /api/streams/${call}`, {
    input: (c: Cell) => ({ stream_id: c.owner.streamId, timetoken: '1' }),
    stopsShort: { status: 404, message: MSG.chatLineUnknown, why: 'the matrix\'s streams have no chat lines to act on (chat-moderation.int.test.ts removes and approves them)' },
  }])),
  'POST /api/streams/time-out-chatter': { input: (c) => ({ stream_id: c.owner.streamId, user_id: world.victim.user.id, minutes: 1 }) },
  'POST /api/admin/chat-filter-set': { input: () => ({ words: [] }) },
  'GET /api/streams/replay-chat': { paidStream: true, input: (c) => ({ id: c.owner.streamId }) },
  'GET /api/streams/goals': { input: (c) => ({ id: c.owner.streamId }) },
  'POST /api/streams/save-goals': { freshOwner: true, input: (c) => ({ stream_id: c.owner.streamId, goals: [{ amount: 100, description: 'Seen by the matrix' }] }) },
  'GET /api/streams/ingest-health': { input: (c) => ({ id: c.owner.streamId }) },
  'GET /api/streams/live-session': { input: (c) => ({ id: c.owner.streamId }) },
  'POST /api/streams/leave-stream': { input: (c) => ({ id: c.owner.streamId }) },
  'POST /api/streams/regenerate-key': { freshOwner: true },
  'POST /api/streams/report-stream': { input: (c) => ({ id: c.owner.streamId, type: 'other' }) },
  'POST /api/streams/report-stream-action': { input: (c) => ({ stream_ids: [c.owner.streamId], event: 'MAKE_FEATURED' }) },
  'POST /api/streams/save': { input: (c) => ({ user_id: id(c), stream_id: c.owner.streamId, save: true }) },
  'GET /api/streams/send-rating': { input: (c) => ({ id: id(c), stream_id: c.owner.streamId, rating: 5 }) },
  'POST /api/streams/send-tip': { input: (c) => ({ stream_id: c.owner.streamId, amount: 10 }) },
  'GET /api/streams/tip-menu': { input: (c) => ({ user_id: c.owner.user.id }) },
  'GET /api/streams/show-offer': { input: (c) => ({ user_id: c.owner.user.id }) },
  'GET /api/streams/show': { input: (c) => ({ id: c.owner.streamId }) },
  'POST /api/streams/join-show': {
    input: (c) => ({ stream_id: c.owner.streamId, as: 'private' }),
    stopsShort: { status: 409, message: MSG.showNeedsLive, why: 'the matrix\'s streams are not on air (shows.int.test.ts runs shows on live ones)' },
  },
  'POST /api/streams/show-here': {
    input: (c) => ({ stream_id: c.owner.streamId }),
    stopsShort: { status: 404, message: MSG.showUnknown, why: 'no caller holds a seat in a show of the matrix\'s streams (shows.int.test.ts)' },
  },
  'POST /api/streams/leave-show': {
    input: (c) => ({ stream_id: c.owner.streamId }),
    stopsShort: { status: 404, message: MSG.showUnknown, why: 'no caller holds a seat in a show of the matrix\'s streams (shows.int.test.ts)' },
  },
  'GET /api/streams/show-requests': { input: (c) => ({ id: c.owner.streamId }) },
  'POST /api/streams/answer-show-request': {
    input: (c) => ({ stream_id: c.owner.streamId, show_id: 1, accept: false }),
    stopsShort: { status: 404, message: MSG.showUnknown, why: 'nobody asked the matrix\'s broadcaster for a show (shows.int.test.ts answers requests)' },
  },
  'POST /api/streams/open-group-show': {
    input: (c) => ({ stream_id: c.owner.streamId }),
    stopsShort: { status: 409, message: MSG.showNeedsLive, why: 'the matrix\'s streams are not on air (shows.int.test.ts opens group shows on live ones)' },
  },
  'POST /api/streams/end-show': { input: (c) => ({ stream_id: c.owner.streamId }) },
  'GET /api/messages/thread': { input: () => ({ user_id: world.victim.user.id }) },
  'POST /api/messages/send': { input: () => ({ user_id: world.victim.user.id, text: 'Hello from the matrix', client_key: unique('dm-key-') }) },
  'POST /api/messages/read': {
    input: () => ({ user_id: world.victim.user.id, message_id: 999_999_999 }),
    stopsShort: { status: 404, message: MSG.messageUnknown, why: 'the matrix names no message of the caller\'s (messages.int.test.ts marks conversations read)' },
  },
  'POST /api/messages/send-to-many': { input: () => ({ audience: 'followers', text: 'Hello to all from the matrix', client_key: unique('dm-many-') }) },
  'POST /api/messages/block': { input: () => ({ user_id: world.victim.user.id, block: false }) },
  'POST /api/messages/report': {
    input: () => ({ message_id: 999_999_999, type: 'other' }),
    stopsShort: { status: 404, message: MSG.messageUnknown, why: 'the matrix names no message sent to the caller (messages.int.test.ts reports one)' },
  },
  'GET /api/messages/message': {
    input: () => ({ message_id: 999_999_999 }),
    stopsShort: { status: 404, message: MSG.messageUnknown, why: 'the matrix names no message of the caller\'s (message-media.int.test.ts looks messages up)' },
  },
  'POST /api/messages/unlock': {
    input: () => ({ message_id: 999_999_999 }),
    stopsShort: { status: 404, message: MSG.messageUnknown, why: 'the matrix names no paid message sent to the caller (message-media.int.test.ts unlocks one)' },
  },
  'POST /api/vault/add': {
    input: () => ({ upload_ids: ['seen-by-the-matrix'] }),
    stopsShort: { status: 404, message: MSG.uploadUnknown, why: 'the matrix finishes no upload (message-media.int.test.ts fills a vault)' },
  },
  'POST /api/streams/save-tip-menu': { input: () => ({ items: [{ label: 'Seen by the matrix', price: 10 }] }) },
  'GET /api/streams/menu-requests': { input: (c) => ({ id: c.owner.streamId }) },
  'POST /api/streams/mark-menu-request': {
    input: (c) => ({ stream_id: c.owner.streamId, request_id: 1, done: true }),
    stopsShort: { status: 404, message: MSG.menuRequestUnknown, why: 'the matrix\'s streams have no requests (tip-menu.int.test.ts ticks one off)' },
  },
  'POST /api/streams/stream-join': { paidStream: true, input: (c) => ({ stream_id: c.owner.streamId }) },
  'GET /api/streams/stream-lookup': { input: (c) => ({ id: c.owner.streamId }) },
  'GET /api/streams/supporters': { input: (c) => ({ id: c.owner.streamId }) },
  'POST /api/streams/update-stream-info': { input: (c) => ({ id: c.owner.streamId, data: { description: unique('seen by the matrix ') } }) },
  'GET /api/streams/user-streams': { input: (c) => ({ id: c.owner.user.id }) },
  'POST /api/user/add-user-interest': { input: (c) => ({ id: c.owner.user.id, interest_ids: world.interestIds }) },
  'POST /api/user/buy-impressions-package': { input: () => ({ id: world.impressionPackageId }) },
  'POST /api/user/check-recovery-code': {
    send: async (c) => {
      const target = await recoveryTarget();
      const code = await recoveryCode(target);
      return c.client.post('/api/user/check-recovery-code', { username: target.username, recoveryCode: code });
    },
  },
  'POST /api/user/change-password': {
    freshOwner: true,
    input: (c) => ({ id: c.owner.user.id, current_password: c.owner.user.password, new_password: 'another-secret-9', confirm_password: 'another-secret-9' }),
  },
  'POST /api/user/delete-account': { freshOwner: true, input: (c) => ({ id: c.owner.user.id, current_password: c.owner.user.password }) },
  'GET /api/user/email-notifications': { input: (c) => ({ id: c.owner.user.id, token: t.app.services.settings.emailLinkToken(c.owner.user.id) }) },
  'POST /api/user/email-notifications': {
    input: (c) => ({ id: c.owner.user.id, token: t.app.services.settings.emailLinkToken(c.owner.user.id), notify_via_email: true }),
  },
  'GET /api/user/following': { input: (c) => ({ id: c.owner.user.id }) },
  'POST /api/user/get-recovery-email': { input: () => ({ username: world.victim.user.username }) },
  'GET /api/user/get-system-messages': { input: () => ({ locale: 'en' }) },
  'GET /api/user/get-user-preferences': { input: (c) => ({ id: c.owner.user.id }) },
  'POST /api/user/logout': { freshSession: true },
  'POST /api/user/reset-password': {
    send: async (c) => {
      const target = await recoveryTarget();
      const code = await recoveryCode(target);
      const password = 'a-new-secret-9';
      return c.client.post('/api/user/reset-password', { username: target.username, recoveryCode: code, userPassword: password, confirmPassword: password });
    },
  },
  'POST /api/user/send-recovery-code': {
    send: async (c) => c.client.post('/api/user/send-recovery-code', { username: (await recoveryTarget()).username }),
  },
  'GET /api/user/system-message-lookup': { input: () => ({ id: world.systemMessageId }) },
  'POST /api/user/toggle-following': { input: (c) => ({ id: c.owner.user.id, isFollowing: true }) },
  'POST /api/user/toggle-notification': { input: (c) => ({ id: c.owner.user.id, notify: true }) },
  'POST /api/user/update-user-info': { input: (c) => ({ id: c.owner.user.id, params: { description: unique('about ') } }) },
  'POST /api/user/update-user-preferences': { input: (c) => ({ id: c.owner.user.id, params: { notify_chat: true } }) },
  'POST /api/user/upload-avatar': {
    send: async (c) => {
      const file = multipartFile('file', 'me.png', 'image/png', avatarPng);
      return c.client.request('POST', '/api/user/upload-avatar', { rawBody: file.body, headers: { 'content-type': file.contentType } });
    },
  },
  'GET /api/user/user-earning-details': { input: (c) => ({ id: c.owner.user.id }) },
  'GET /api/user/referral-summary': { input: () => ({}) },
  'GET /api/user/referral-referred-list': { input: () => ({ offset: 0, limit: 10 }) },
  'GET /api/user/referral-summary-referred': { input: () => ({ from: '2026-01-01', to: '2026-01-31' }) },
  'GET /api/user/referral-summary-commission': { input: () => ({ from: '2026-01-01', to: '2026-01-31' }) },
  'GET /api/user/referral-summary-streaming': { input: () => ({ from: '2026-01-01', to: '2026-01-31' }) },
  'POST /api/user/referral-link-create': { input: () => ({ type: 'INFLUENCER', campaign: unique('matrix-') }) },
  'GET /api/user/user-analytics': { input: (c) => ({ event: 'TOTAL_TIP_COUNT,TOP_TIPPERS', from: '2026-01-01', to: '2026-01-31', user_id: c.owner.user.id }) },
  'GET /api/user/tax-info': { input: (c) => ({ user_id: c.owner.user.id }) },
  'GET /api/user/earnings-statement': { input: (c) => ({ month: new Date().toISOString().slice(0, 7), user_id: c.owner.user.id }) },
  'GET /api/user/earnings-year': { input: (c) => ({ year: new Date().getUTCFullYear(), user_id: c.owner.user.id }) },
  'GET /api/user/earnings-statement.csv': {
    send: async (c) => c.client.get('/api/user/earnings-statement.csv', { month: new Date().toISOString().slice(0, 7), user_id: c.owner.user.id }),
  },
  'GET /api/user/notifications': { input: () => ({ limit: 5 }) },
  'POST /api/user/notifications-read': { input: () => ({ all: true }) },
  'GET /api/user/push-key': { input: () => ({}) },
  'POST /api/user/push-subscribe': {
    input: () => ({ endpoint: `https://fcm.googleapis.com/fcm/send/${unique('matrix-')}`, keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } }),
  },
  'POST /api/user/push-unsubscribe': { input: () => ({ endpoint: `https://fcm.googleapis.com/fcm/send/${unique('matrix-')}` }) },
  'POST /api/user/user-interest-list': { input: (c) => ({ id: c.owner.user.id }) },
  'POST /api/user/user-login': { freshSession: true, input: () => ({ username: world.victim.user.username, password: world.victim.user.password }) },
  'GET /api/user/user-lookup': { input: (c) => ({ id: c.owner.user.id }) },
  'POST /api/user/user-register': {
    freshSession: true,
    input: () => {
      const username = unique('reg');
      return { username, email: `${username}@test.example`, password: 'a-secret-of-9', birthday: '01-01-1990', country: 'US', terms_accepted: true };
    },
  },
  'POST /api/wallet/add-credit-card': { input: () => ({ card }) },
  'POST /api/wallet/deposit-coins': { input: () => ({ package_id: world.coinPackageId, payment_method: 'card', card }) },
  // Support applying a request; 'enabled' leaves the package as it is for the other cells.
  'POST /api/subscription/update-coin-subscription': { input: () => ({ id: world.coinSubscriptionId, state: 'enabled' }) },
  'POST /api/translate': { input: () => ({ message: 'Hola a todos', lang: 'en' }) },
  'GET /api/subscription/plan-list': { input: (c) => ({ id: c.owner.user.id }) },
  'POST /api/subscription/margin': { input: () => ({ currency: 'CON' }) },
  // Another price than the world's plans: each caller adds it once.
  'POST /api/subscription/plan-add': { input: () => ({ template_id: world.fanTemplateId, price: 50, currency: 'CON' }) },
  'POST /api/subscription/plan-delete': {
    freshOwner: true,
    send: async (c) => c.client.post('/api/subscription/plan-delete', { plan_id: await fanPlanOf(c.owner) }),
  },
  'POST /api/subscription/list-subscriber': { input: (c) => ({ user_id: c.owner.user.id }) },
  'POST /api/subscription/list-subscription': { input: (c) => ({ user_id: c.owner.user.id }) },
  'GET /api/subscription/subscriber-stats': { input: (c) => ({ id: c.owner.user.id }) },
  'GET /api/subscription/lookup-subscription': { input: () => ({ id: world.ownerSubscriptionId }) },
  'GET /api/subscription/list-subscription-history': { input: () => ({ id: world.ownerSubscriptionId }) },
  'POST /api/subscription/cancel-subscription': {
    freshOwner: true,
    send: async (c) => c.client.post('/api/subscription/cancel-subscription', { id: await subscriptionOf(c.owner) }),
  },
  'POST /api/subscription/renew-subscription': {
    freshOwner: true,
    send: async (c) => c.client.post('/api/subscription/renew-subscription', { id: await subscriptionOf(c.owner, false) }),
  },
  // A fresh creator per cell: callers holding coins from earlier cells really subscribe, and a subscription to
  // the world's owner would open that owner's priority chat to them in the realtime cells.
  'POST /api/subscription/subscribe': {
    freshOwner: true,
    send: async (c) => c.client.request('POST', '/api/subscription/subscribe', {
      body: { plan_id: await fanPlanOf(c.owner), user_id: c.owner.user.id }, headers: { 'idempotency-key': unique('subscribe') },
    }),
  },
  'POST /api/subscription/subscribe-checkout': {
    freshOwner: true,
    send: async (c) => c.client.post('/api/subscription/subscribe-checkout', { plan_id: await fanPlanOf(c.owner), user_id: c.owner.user.id, payment_method: 'paypal' }),
    stopsShort: { status: 400, message: MSG.paymentMethodUnavailable, why: 'no processor page here (plan-checkouts.int.test.ts and paypal-btcpay-deposits.int.test.ts pay plans through the stand-ins)' },
  },
  'GET /api/subscription/checkout-result': {
    send: async (c) => {
      // The caller's own plan checkout (anonymous: someone's, which it is refused before reading).
      const userId = c.me?.id ?? world.victim.user.id;
      const [own] = await t.resources.database.db.insert(payments).values({
        userId, provider: 'sandbox', providerRef: unique('ch_sbx_plan'), packageId: world.coinPackageId, amount: 100, currency: 'USD', status: 'pending',
      }).returning({ id: payments.id });
      await t.resources.database.db.insert(planCheckouts).values({
        paymentId: own!.id, subscriberId: userId, creatorId: world.victim.user.id, planId: world.victimPlanId, price: 20, autoRenew: true,
      });
      return c.client.get('/api/subscription/checkout-result', { payment_id: own!.id });
    },
  },
  // Offers on plans (decision 0089): a fresh creator per cell, so each cell's plan and offer are new.
  'POST /api/subscription/offer-add': {
    freshOwner: true,
    send: async (c) => c.client.post('/api/subscription/offer-add', { plan_id: await fanPlanOf(c.owner), kind: 'trial', days: 7 }),
  },
  'POST /api/subscription/offer-withdraw': {
    freshOwner: true,
    send: async (c) => c.client.post('/api/subscription/offer-withdraw', { offer_id: (await trialOfferOf(c.owner)).offerId }),
  },
  'GET /api/subscription/offer': {
    freshOwner: true,
    send: async (c) => c.client.get('/api/subscription/offer', { code: (await trialOfferOf(c.owner)).code }),
  },
  // A free trial: every caller but its creator takes it, whatever their coins.
  'POST /api/subscription/claim-offer': {
    freshOwner: true,
    send: async (c) => c.client.request('POST', '/api/subscription/claim-offer', {
      body: { code: (await trialOfferOf(c.owner)).code }, headers: { 'idempotency-key': unique('offer') },
    }),
  },
  ...Object.fromEntries(['stripe', 'paypal', 'btcpay'].map((name) => [`POST /api/wallet/webhooks/${name}`, {
    send: async (c: Cell) => c.client.request('POST', `/api/wallet/webhooks/${name}`, { rawBody: '{}', csrf: false, headers: { 'content-type': 'application/json' } }),
    stopsShort: { status: 404, message: MSG.processorNotConfigured, why: 'not configured here (stripe-deposits and paypal-btcpay-deposits.int.test.ts post signed events from the stand-ins)' },
  }])),
  'GET /api/wallet/deposit-result': {
    send: async (c) => {
      // The caller's own payment (anonymous: someone's, which it is refused before reading).
      const [own] = await t.resources.database.db.insert(payments).values({
        userId: c.me?.id ?? world.victim.user.id, provider: 'sandbox', providerRef: unique('ch_sbx_result'), packageId: world.coinPackageId, amount: 100, currency: 'USD', status: 'succeeded',
      }).returning({ id: payments.id });
      return c.client.get('/api/wallet/deposit-result', { payment_id: own!.id });
    },
  },
  'POST /api/admin/payment-refund': {
    send: async (c) => {
      const [paid] = await t.resources.database.db.insert(payments).values({
        userId: world.victim.user.id, provider: 'sandbox', providerRef: unique('ch_sbx_refund'), packageId: world.coinPackageId, amount: 100, currency: 'USD', status: 'succeeded',
      }).returning({ id: payments.id });
      return c.client.post('/api/admin/payment-refund', { payment_id: paid!.id });
    },
    stopsShort: { status: 409, message: MSG.paymentNotRefundable, why: 'the sandbox refunds through no processor (stripe-deposits.int.test.ts refunds through the Stripe stand-in)' },
  },
  'POST /api/wallet/webhooks/sandbox': {
    send: async (c) => {
      const providerRef = unique('ch_sbx_matrix');
      await t.resources.database.db.insert(payments).values({
        userId: world.victim.user.id, provider: 'sandbox', providerRef, packageId: world.coinPackageId, amount: 100, currency: 'USD', status: 'pending',
      });
      const raw = JSON.stringify({ type: 'charge.succeeded', provider_ref: providerRef });
      const secret = await loadSecret(t.resources.database.db, SANDBOX_WEBHOOK_SECRET);
      return c.client.request('POST', '/api/wallet/webhooks/sandbox', {
        rawBody: raw, csrf: false, headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(secret, raw) },
      });
    },
  },
  'POST /api/post/create': {
    send: async (c) => {
      const upload = c.me ? await uploadFile(c.client, await testPicture(), 'matrix.png', 'image/png') : 'none';
      return c.client.post('/api/post/create', { type: 'image', title: 'Matrix post', audience: 'public', upload_ids: [upload] });
    },
  },
  'GET /api/post/post-lookup': { input: () => ({ id: world.postId }) },
  'GET /api/post/comment-list': { input: () => ({ post_id: world.postId }) },
  'POST /api/post/create-comment': { input: () => ({ post_id: world.postId, body: 'Nice picture' }) },
  'POST /api/post/purchase': { input: () => ({ post_id: world.paidPostId }) },
  'POST /api/post/like': { input: () => ({ post_id: world.postId, like: true }) },
  'POST /api/post/delete': {
    freshOwner: true,
    send: async (c) => c.client.post('/api/post/delete', { post_id: await publishImagePost(c.owner.client) }),
  },
  'POST /api/post/edit': { input: () => ({ post_id: world.postId, title: 'Matrix picture' }) },
  'POST /api/post/report': { input: () => ({ post_id: world.postId, type: 'other' }) },
  'POST /api/comment/report': { input: () => ({ comment_id: world.commentId, type: 'other' }) },
  'POST /api/post/save': { input: () => ({ post_id: world.postId, save: true }) },
  // Meetings: the owner hosts, `other` is invited; a caller's own invitees must follow the caller.
  'POST /api/user/create-meeting': {
    send: async (c) => c.client.post('/api/user/create-meeting', meetingFields(c.me ? (await t.given.follower(c.me)).user.id : world.other.user.id)),
  },
  'GET /api/user/schedule-meeting': { input: () => ({ id: world.meetingId }) },
  'POST /api/user/update-schedule-meeting': { input: () => ({ id: world.meetingId, params: meetingFields(world.other.user.id) }) },
  'POST /api/user/delete-schedule-meeting': { send: async (c) => c.client.post('/api/user/delete-schedule-meeting', { id: await meetingOf() }) },
  'POST /api/user/join-meeting': { input: () => ({ id: world.meetingId }) },
  'POST /api/user/pay-meeting': { input: () => ({ id: world.meetingId, amount: 10 }) },
  // Toy-device access in the owner's meeting, where `other` holds APPROVED access (beforeAll).
  'POST /api/user/lovense-action': { input: () => ({ event: 'GET_LOVENSE_LIST', stream_id: world.meetingId, room: 'meeting' }) },
  'GET /api/user/lovense-token': { input: (c) => ({ user_id: id(c), stream_id: world.meetingId, room: 'meeting' }) },
  'POST /api/user/lovense-device': { input: () => ({ connected: true }) },
  'GET /api/user/lovense-stream-viewers': { input: (c) => ({ stream_id: c.owner.streamId }) },
  'POST /api/user/kick-meeting-participant': {
    send: async (c) => c.client.post('/api/user/kick-meeting-participant', { id: await meetingOf(), user_id: world.other.user.id }),
  },
  'POST /api/user/end-meeting': { send: async (c) => c.client.post('/api/user/end-meeting', { id: await meetingOf() }) },
  'POST /api/user/rate-meeting': { input: () => ({ id: world.endedMeetingId, rating: 5 }) },
  'POST /api/user/report-meeting': { input: () => ({ id: world.meetingId, type: 'other' }) },
  'POST /api/user/save-meeting': { input: () => ({ id: world.meetingId, save: true }) },
  'GET /api/post/user-posts': { input: (c) => ({ id: c.owner.user.id }) },
  'GET /api/channel/list-channel-posts': { input: () => ({ id: world.channelId }) },
  'POST /uploads': { send: async (c) => (await startUpload(c.client, 10, { filename: 'ten.bin' })).res },
  'HEAD /uploads/:uploadId': { send: async (c) => c.client.request('HEAD', `${UPLOADS_PATH}/${await ownUpload(c)}`, { headers: TUS_HEADERS }) },
  'PATCH /uploads/:uploadId': {
    send: async (c) => c.client.request('PATCH', `${UPLOADS_PATH}/${await ownUpload(c)}`, {
      rawBody: Buffer.alloc(10, 1), headers: { ...TUS_HEADERS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    }),
  },
  'DELETE /uploads/:uploadId': { send: async (c) => c.client.request('DELETE', `${UPLOADS_PATH}/${await ownUpload(c)}`, { headers: TUS_HEADERS }) },
  'GET /media/posts/:mediaId/:file': { send: async (c) => c.client.request('GET', await mediaUrl(c, world.postId, (m) => m.url)) },
  'GET /media/posts/:mediaId/hls/:part': { send: async (c) => c.client.request('GET', await mediaUrl(c, world.videoPostId, (m) => m.url)) },
  'GET /media/posts/:mediaId/hls/:part/:file': {
    send: async (c) => {
      const master = await mediaUrl(c, world.videoPostId, (m) => m.url);
      const variant = String((await c.client.request('GET', master)).body).split('\n').find((line) => line && !line.startsWith('#'))!;
      return c.client.request('GET', master.replace(/index\.m3u8\?.*$/, variant));
    },
  },
  'GET /api/streams/emotes': { input: (c) => ({ user_id: c.owner.user.id }) },
  'POST /api/streams/upload-emote': {
    send: async (c) => {
      const file = multipartFile('file', 'emote.png', 'image/png', avatarPng);
      return c.client.request('POST', `/api/streams/upload-emote?code=m${randomBytes(6).toString('hex')}`, { rawBody: file.body, headers: { 'content-type': file.contentType } });
    },
  },
  'POST /api/streams/delete-emote': {
    input: () => ({ code: 'nosuchemote' }),
    stopsShort: { status: 404, message: MSG.emoteUnknown, why: 'each cell removes an emote it does not have (emotes.int.test.ts removes a broadcaster\'s own)' },
  },
  'GET /media/emotes/:name': { send: async (c) => c.client.request('GET', await ownersEmote()) },
  'GET /media/avatars/:name': {
    send: async (c) => {
      const me = await world.owner.client.get('/api/user/session-detail');
      return c.client.request('GET', String((me.body.user as { avatar: string }).avatar));
    },
  },
  'POST /ajax/tracking/track-event': { input: () => ({ action: 'app_opened', tracker: 'matrix' }) },
  'POST /api/user/user-social-login': {
    send: async (c) => {
      const linked = await t.given.user();
      const ticket = await socialTicket(c, linked.id);
      return c.client.post('/api/user/user-social-login', { type: 'google', token: ticket });
    },
  },
  'POST /api/user/user-fb-login': {
    send: async (c) => {
      const linked = await t.given.user();
      const ticket = await socialTicket(c, linked.id, 'facebook');
      return c.client.post('/api/user/user-fb-login', { token: ticket });
    },
  },
  'POST /api/user/user-social-register': {
    send: async (c) => {
      const ticket = await socialTicket(c, null);
      return c.client.post('/api/user/user-social-register', {
        social_media_type: 'google', social_media_token: ticket, username: unique('soc'), birthday: '01-01-1990', country: 'US', terms_accepted: true,
      });
    },
  },
  'GET /media/hls/:streamId/:token/index.m3u8': { send: async (c) => c.client.request('GET', await playlistUrl(c)) },
  'GET /media/hls/:streamId/:token/:segment': { send: async (c) => firstSegment(c, await playlistUrl(c)) },
  'GET /media/hls/:streamId/:token/:variant/index.m3u8': { send: async (c) => c.client.request('GET', await playlistUrl(c, '240p')) },
  'GET /media/hls/:streamId/:token/:variant/:segment': { send: async (c) => firstSegment(c, await playlistUrl(c, '240p')) },
  'POST /api/auth/apple/callback': {
    send: (c) => c.client.request('POST', '/api/auth/apple/callback', {
      rawBody: 'code=from-apple&state=not-a-flow', csrf: false, headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  },
  'GET /media/thumbs/:file': { send: (c) => c.client.request('GET', `/media/thumbs/${world.owner.streamId}.jpg`) },
  'GET /api/docs/static/*': { send: (c) => c.client.request('GET', '/api/docs/static/swagger-ui.css') },
  'HEAD /api/docs/': { send: (c) => c.client.request('HEAD' as 'GET', '/api/docs/') },
  'GET /api/streams/broadcast-from-browser': {
    // A stream of its own, set up (GO LIVE's rule) and not ended by the calls before it.
    freshOwner: true,
    send: async (c) => {
      const setUp = await c.owner.client.post('/api/streams/update-stream-info', { id: c.owner.streamId, data: { title: 'Matrix from the browser', audience: 'PUBLIC', rating: 'G' } });
      if (setUp.status !== 200) throw new Error(`update-stream-info: ${setUp.status} ${JSON.stringify(setUp.body)}`);
      const answer = await openUpgrade(`${baseUrl.replace(/^http/, 'ws')}${BROWSER_BROADCAST_PATH}?id=${c.owner.streamId}`, { cookie: c.client.cookie('ll_session') });
      if (!('socket' in answer)) return { status: answer.status, body: answer.body, headers: {} };
      answer.socket.close(1000);
      return { status: 101, body: {}, headers: {} };
    },
  },
  'GET /ws': {
    send: async (c) => {
      const socket = await WsClient.connect(baseUrl, c.client.cookie('ll_session'));
      socket.close();
      return { status: 101, body: {}, headers: {} };
    },
  },
};


const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * A social sign-in ticket as the provider's callback leaves it (the OAuth dance itself is the
 * social-login suite's): bound to the caller's browser, for an identity linked to `userId`, or to
 * none (then it registers).
 */
async function socialTicket(c: Cell, userId: number | null, provider: 'google' | 'facebook' = 'google'): Promise<string> {
  const db = t.resources.database.db;
  const ticket = randomBytes(16).toString('base64url');
  const binder = randomBytes(16).toString('base64url');
  const subject = unique('subject-');
  await db.insert(socialTickets).values({
    ticketHash: sha256(ticket), provider, subject, email: `${subject}@social.example`, name: 'Social Person',
    binderHash: sha256(binder), expiresAt: new Date(Date.now() + 10 * 60_000),
  });
  if (userId !== null) await db.insert(socialIdentities).values({ provider, subject, userId });
  c.client.setCookie('ll_social_ticket', binder);
  return ticket;
}

/**
 * The signed playlist address stream-join gives this caller, with a playlist and a segment in the store;
 * `variant`: a rendition's playlist in its folder beside the broadcast's (live renditions).
 */
async function playlistUrl(c: Cell, variant?: string): Promise<string> {
  const key = `media/${c.owner.streamId}/b1${variant ? `/${variant}` : ''}`;
  await t.resources.files.put(`${key}/index.m3u8`, '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg_00000.ts\n');
  await t.resources.files.put(`${key}/seg_00000.ts`, Buffer.alloc(188, 0x47));
  const joined = await c.client.post('/api/streams/stream-join', { stream_id: c.owner.streamId });
  const hls = (joined.body as { url?: { hls?: string } }).url?.hls;
  if (!hls) throw new Error(`stream-join answered ${joined.status} ${JSON.stringify(joined.body)}`);
  return variant ? hls.replace(/index\.m3u8$/, `${variant}/index.m3u8`) : hls;
}

/** The first segment a playlist lists, fetched at its signed address. */
async function firstSegment(c: Cell, url: string) {
  const playlist = await c.client.request('GET', url);
  const segment = segmentPath(url, playlist.body);
  if (!segment) throw new Error(`no segment in the playlist: ${playlist.status} ${String(playlist.body)}`);
  return c.client.request('GET', segment);
}

let avatarPng: Buffer;

// ---------------------------------------------------------------------------------------------

const calls = new Map<string, CallDef>();
for (const domain of Object.values(contract)) {
  if (typeof domain !== 'object' || domain === null) continue;
  for (const value of Object.values(domain as Record<string, unknown>)) {
    const def = value as Partial<CallDef>;
    if (def && typeof def === 'object' && typeof def.path === 'string' && typeof def.method === 'string' && def.input) {
      calls.set(`${def.method} ${def.path}`, def as CallDef);
    }
  }
}

const keyOf = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** The routes the matrix calls: Fastify's own HEAD twins of GET routes are not routes of ours. */
function routesOfTable(): RouteRecord[] {
  const gets = new Set(t.app.routeTable.filter((r) => r.method === 'GET').map((r) => r.path));
  return t.app.routeTable.filter((r) => !(r.method === 'HEAD' && gets.has(r.path) && r.path !== '/api/docs/'));
}

let openapi: { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> } }>> };

function exampleOf(route: RouteRecord): unknown {
  const op = openapi.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
  const media = op?.requestBody?.content?.['application/json'];
  return media?.example ?? Object.values(media?.examples ?? {})[0]?.value;
}

async function callerFor(role: Role, fresh: boolean): Promise<{ client: HttpSession; me: TestUser | null }> {
  if (role === 'anonymous') return { client: session(), me: null };
  const known: Person | undefined =
    role === 'user' ? world.user
      : role === 'other' ? world.other
        : role === 'moderator' ? world.moderator
          : role === 'admin' ? world.admin
            : role === 'owner' ? world.owner
              : await holder(role);
  const client = fresh ? await signIn(known.user) : known.client;
  return { client, me: known.user };
}

async function callRoute(route: RouteRecord, c: Case, cell: Cell): Promise<HttpResponse<unknown>> {
  if (c.send) return c.send(cell);
  const def = calls.get(keyOf(route));
  if (!def) {
    if (/[:*]/.test(route.path)) throw new Error(`${keyOf(route)}: not a call of the contract and no way to call it in CASES`);
    return cell.client.request(route.method as 'GET', route.path);
  }
  const input = c.input ? c.input(cell) : exampleOf(route) ?? {};
  const parsed = (def.input as z.ZodType).safeParse(input);
  if (!parsed.success) throw new Error(`${keyOf(route)}: the matrix's input is not valid for the call: ${parsed.error.message}`);
  const headers: Record<string, string> = {};
  if (def.idempotencyKey) headers['idempotency-key'] = unique('matrix-');
  if (def.method === 'GET') {
    if (def.changesState) headers['x-csrf-token'] = await cell.client.csrf();
    const qs = new URLSearchParams(Object.entries(input as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
    return cell.client.request('GET', `${def.path}${qs.size > 0 ? `?${qs}` : ''}`, { headers });
  }
  return cell.client.request('POST', def.path, { body: input, headers });
}

interface Result {
  key: string;
  role: Role;
  expected: Outcome;
  status: number;
  problem?: string;
  gap?: string;
  short?: string;
}

function judge(key: string, role: Role, access: Access, res: { status: number; body: unknown }, stopsShort?: Case['stopsShort']): Result {
  const declared = role in access.cells ? access.cells[role as Caller] : access.perms?.[role as Permission];
  if (declared === undefined) throw new Error(`${key}: no cell for ${role}`);
  const gap = access.gaps?.[role];
  const expected = gap ? gap.actual : declared;
  const result: Result = { key, role, expected: declared, status: res.status, ...(gap ? { gap: gap.why } : {}) };
  const body = res.body as { response?: unknown; message?: unknown } | null;
  if (expected === 'ok' && stopsShort && res.status === stopsShort.status && body?.message === stopsShort.message) {
    result.short = stopsShort.why;
  } else if (expected === 'ok') {
    if (res.status < 100 || res.status >= 400) result.problem = `expected an answer, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
  } else if (res.status !== expected) {
    result.problem = `expected ${expected}, got ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
  } else {
    if (typeof body?.response !== 'string' || typeof body.message !== 'string') result.problem = `refusal ${res.status} without the envelope: ${JSON.stringify(res.body).slice(0, 200)}`;
  }
  return result;
}

const rolesOf = (access: Access): Role[] => [...CALLERS, ...(Object.keys(access.perms ?? {}) as Permission[])];

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  await new Promise<void>((resolve) => translator.listen(0, '127.0.0.1', resolve));
  const { port } = translator.address() as { port: number };
  idp = await startTestOidcProvider();
  t = await startTestApp({ TRANSLATE_URL: `http://127.0.0.1:${port}`, ...idp.env('google'), ...idp.env('apple'), ...idp.env('facebook') });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const doc = await session().get('/api/docs/json');
  openapi = doc.body as typeof openapi;
  avatarPng = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#c0ffee' } }).png().toBuffer();

  const ownerUser = await t.given.user();
  const live = await t.given.liveStream({}, ownerUser);
  await t.given.coins(ownerUser, 5000);
  const ownerClient = await signIn(ownerUser);
  const file = multipartFile('file', 'me.png', 'image/png', avatarPng);
  const uploaded = await ownerClient.request('POST', '/api/user/upload-avatar', { rawBody: file.body, headers: { 'content-type': file.contentType } });
  // A live thumbnail, as the media node reports it (free public streams only have one).
  await t.resources.files.put(`thumbs/${live.streamId}.jpg`, await sharp({ create: { width: 16, height: 9, channels: 3, background: '#000' } }).jpeg().toBuffer());
  await t.app.services.broadcastCallbacks.onThumbnail({ streamId: live.streamId, thumbnailKey: `thumbs/${live.streamId}.jpg` });
  const paidUser = await t.given.user();
  const paidLive = await t.given.liveStream({ tip_viewer_min_amount: 100 }, paidUser);
  const other = await person();
  await t.given.follower(ownerUser, other);
  const anyone = session();
  const interests = await anyone.get('/api/user/get-interest-list');
  const coinPackages = await anyone.get('/api/wallet/coin-packages');
  const base = await anyone.get('/api/channel/base-group');
  const [message] = await t.resources.database.db.insert(systemMessages).values({ title: 'Matrix', content: '<p>hello</p>' }).returning({ id: systemMessages.id });
  world = {
    owner: { user: ownerUser, client: ownerClient, streamId: live.streamId, avatar: String(uploaded.body.avatar) },
    paid: { user: paidUser, client: paidLive.client, streamId: paidLive.streamId },
    user: await person(),
    other,
    moderator: await person({ perms: [...DEFAULT_PERMISSIONS, ...MODERATOR_PERMISSIONS] }),
    admin: await person({ role: 'admin' }),
    holders: new Map(),
    victim: await person({}, 0),
    interestIds: (interests.body.interests as Array<{ interest_id: number }>).slice(0, 3).map((i) => i.interest_id),
    coinPackageId: (coinPackages.body.packages as Array<{ package_id: number }>)[0]!.package_id,
    impressionPackageId: 0,
    coinSubscriptionId: 0,
    fanTemplateId: 0,
    victimPlanId: 0,
    ownerSubscriptionId: 0,
    channelId: (base.body.channels as Array<{ id: number }>)[0]!.id,
    systemMessageId: message!.id,
    postId: await publishImagePost(ownerClient, { title: 'Matrix picture' }),
    paidPostId: await publishImagePost(ownerClient, { title: 'Matrix paid picture', tip: 100 }),
    commentId: 0,
    videoPostId: await publishVideoPost(ownerClient),
    meetingId: 0,
    endedMeetingId: 0,
    adOfferId: 0,
    adStreamId: 0,
  };
  world.meetingId = await meetingOf();
  world.adOfferId = await adminOffer();
  const adLive = await t.given.liveStream();
  world.adStreamId = adLive.streamId;
  const attached = await adLive.client.post('/api/ads/update-stream-offers', { offer_ids: [world.adOfferId] });
  if (attached.status !== 200) throw new Error(`update-stream-offers: ${attached.status} ${JSON.stringify(attached.body)}`);
  world.endedMeetingId = await meetingOf();
  await world.owner.client.post('/api/user/end-meeting', { id: world.endedMeetingId });
  const paidTip = await world.other.client.request('POST', '/api/user/pay-meeting', { body: { id: world.meetingId, amount: 250 }, headers: { 'idempotency-key': unique('meeting') } });
  if (paidTip.status !== 200) throw new Error(`pay-meeting: ${paidTip.status} ${JSON.stringify(paidTip.body)}`);
  // The owner's virtual toy is on and `other` holds APPROVED device access in the meeting (the toy operations' `ok` cells).
  await world.owner.client.post('/api/user/lovense-device', { connected: true });
  const toyAsk = await world.owner.client.post('/api/user/lovense-action', { event: 'GET_QR_CODE', stream_id: world.meetingId, room: 'meeting', viewer_id: world.other.user.id, tip_amount: 10 });
  if (toyAsk.status !== 200) throw new Error(`GET_QR_CODE: ${toyAsk.status} ${JSON.stringify(toyAsk.body)}`);
  const toyPaid = await world.other.client.request('POST', '/api/user/lovense-action', {
    body: { event: 'PAID_TIP_SUCCESS', stream_id: world.meetingId, room: 'meeting', tip_amount: 10 }, headers: { 'idempotency-key': unique('toy') },
  });
  if (toyPaid.status !== 200) throw new Error(`PAID_TIP_SUCCESS: ${toyPaid.status} ${JSON.stringify(toyPaid.body)}`);
  const comment = await ownerClient.post('/api/post/create-comment', { post_id: world.postId, body: 'First comment' });
  world.commentId = (comment.body.comment as { comment_id: number }).comment_id;
  await videoReady(world.videoPostId);
  const impressions = await world.user.client.get('/api/user/get-impression-packages');
  world.impressionPackageId = (impressions.body.impression_packages as Array<{ package_id: number }>)[0]!.package_id;
  const recurring = await world.user.client.post('/api/wallet/deposit-coins', { package_id: world.coinPackageId, payment_method: 'card', card, renew_monthly: true });
  world.coinSubscriptionId = (recurring.body.coin_subscription as { id: number }).id;
  const templates = await world.user.client.get('/api/subscription/plan-template');
  world.fanTemplateId = (templates.body.templates as Array<{ template_id: number; name: string }>).find((x) => x.name === 'Fan')!.template_id;
  await fanPlanOf(world.owner); // the owner's plan list is not empty
  world.victimPlanId = await fanPlanOf(world.victim);
  world.ownerSubscriptionId = await subscriptionOf(world.owner);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await idp?.close();
  translator.close();
});

describe('the refusal matrix', () => {
  it('has an access declaration, and a way to call it, for every route and realtime operation', () => {
    const undeclared = routesOfTable().filter((r) => !r.access).map(keyOf);
    expect(undeclared, 'routes without an access declaration (addRoute option `access`, or `config.access`)').toEqual([]);
    const uncallable = routesOfTable().filter((r) => !calls.has(keyOf(r)) && /[:*]/.test(r.path) && !CASES[keyOf(r)]?.send).map(keyOf);
    expect(uncallable, 'routes outside the contract with no way to call them in CASES').toEqual([]);
    // The API document lists nothing the route table (and so the matrix) would miss.
    const tabled = new Set(routesOfTable().map(keyOf));
    const documented = Object.entries(openapi.paths).flatMap(([path, ops]) =>
      Object.keys(ops).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`));
    expect(documented.length).toBeGreaterThan(80);
    expect(documented.filter((key) => !tabled.has(key)), 'documented operations missing from the route table').toEqual([]);
    const realtime = t.app.modules.realtime.filter((op) => !op.access).map((op) => `${op.op} ${op.name}`);
    expect(realtime, 'realtime operations without an access declaration').toEqual([]);
  });

  it('answers every cell as declared', async () => {
    const results: Result[] = [];
    const routes = routesOfTable().filter((r) => r.access);
    for (const route of routes) {
      const key = keyOf(route);
      const c = CASES[key] ?? {};
      for (const role of rolesOf(route.access!)) {
        const owner = c.freshOwner ? await freshOwner() : c.paidStream ? world.paid : world.owner;
        const caller = role === 'owner' ? { client: c.freshSession ? await signIn(owner.user) : owner.client, me: owner.user } : await callerFor(role, c.freshSession === true);
        const cell: Cell = { role, client: caller.client, me: caller.me, owner };
        let res: HttpResponse<unknown>;
        try {
          res = await callRoute(route, c, cell);
        } catch (error) {
          results.push({ key, role, expected: 'ok', status: 0, problem: String(error) });
          continue;
        }
        results.push(judge(key, role, route.access!, res, c.stopsShort));
      }
    }

    // The shared callers must still be who they were: a call that switches a browser's account
    // (sign-in, sign-up) takes a fresh session in CASES, else every later cell would lie.
    for (const [name, known] of Object.entries({ owner: world.owner, user: world.user, other: world.other, moderator: world.moderator, admin: world.admin })) {
      const me = await known.client.get('/api/user/session-detail');
      const userId = (me.body.user as { user_id?: number } | undefined)?.user_id;
      if (userId !== known.user.id) results.push({ key: 'shared sessions', role: name as Caller, expected: 'ok', status: me.status, problem: `now signed in as ${userId}` });
    }

    // The meeting's host and invitee stay in the room, so a SIGNAL has a present, paid participant to go to.
    const meetingChannel = `meeting:${world.meetingId}`;
    const inRoom = [await WsClient.connect(baseUrl, world.owner.client.cookie('ll_session')), await WsClient.connect(baseUrl, world.other.client.cookie('ll_session'))];
    for (const socket of inRoom) await socket.request({ op: 'subscribe', channel: meetingChannel });
    for (const op of t.app.modules.realtime) {
      const key = `${op.op} ${op.name}`;
      for (const role of rolesOf(op.access)) {
        const caller = role === 'owner' ? { client: world.owner.client, me: world.owner.user } : await callerFor(role, false);
        const streamId = world.owner.streamId;
        const channel = op.name.replace('stream:<id>', `stream:${streamId}`).replace('user:<id>', `user:${world.owner.user.id}`).replace('meeting:<id>', meetingChannel);
        const socket = await WsClient.connect(baseUrl, caller.client.cookie('ll_session'));
        try {
          let frame;
          if (op.op === 'subscribe') {
            frame = await socket.request({ op: 'subscribe', channel });
          } else if (op.name === 'SIGNAL') {
            // From the caller's own place in the room (if it may have one) to the host, or the host's to the invitee.
            await socket.request({ op: 'subscribe', channel: meetingChannel });
            const to = role === 'owner' ? world.other.user.id : world.owner.user.id;
            frame = await socket.request({ op: 'send', channel: meetingChannel, id: unique('f'), type: 'SIGNAL', to, signal: { description: { type: 'offer', sdp: 'v=0' } } });
          } else if (op.name === 'DM-TYPING') {
            // On the caller's own channel, to the shared owner (no conversation between them: answered, nothing goes out).
            frame = await socket.request({ op: 'send', channel: `user:${caller.me?.id ?? world.owner.user.id}`, id: unique('f'), type: 'DM-TYPING', to: world.owner.user.id });
          } else if (op.name.startsWith('lovense-')) {
            // Toy operations in the meeting, where `other` holds APPROVED access; the owner is its broadcaster.
            frame = await socket.request({ op: 'send', channel: meetingChannel, id: unique('f'), type: op.name, ...(op.name === 'lovense-command' ? { command: 'Vibrate', level: 1 } : {}) });
          } else {
            const target = `stream:${streamId}`;
            frame = await socket.request({ op: 'send', channel: target, id: unique('f'), type: op.name, ...(op.name === 'LIKE' ? { likes: 1 } : { text: 'hello from the matrix' }) });
          }
          const status = frame.op === 'error' ? (ERRORS[frame.code as ErrorCode]?.status ?? 500) : 200;
          results.push(judge(`realtime ${key}`, role, op.access, { status, body: frame.op === 'error' ? { response: frame.code, message: frame.message } : frame }));
        } finally {
          socket.close();
        }
      }
    }

    for (const socket of inRoom) socket.close();
    const problems = results.filter((r) => r.problem).map((r) => `${r.key} as ${r.role}: ${r.problem}`);
    const gaps = results.filter((r) => r.gap).map((r) => `${r.key} as ${r.role}: spec ${r.expected}, answers ${r.status} (${r.gap})`);
    const short = results.filter((r) => r.short).map((r) => `${r.key} as ${r.role}: access passed, ${r.short}`);
    const routeCount = routes.length + t.app.modules.realtime.length;
    console.log(`refusal matrix: ${routes.length} routes + ${t.app.modules.realtime.length} realtime ops = ${routeCount} × ${CALLERS.length} roles`
      + ` (+ ${results.length - routeCount * CALLERS.length} permission-holder cells) = ${results.length} cells; ${gaps.length} known gaps, ${short.length} cells stopped short`
      + [...gaps, ...short].map((line) => `\n  ${line}`).join(''));
    expect(problems).toEqual([]);
  }, 240_000);
});

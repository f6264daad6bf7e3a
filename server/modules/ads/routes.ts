/** HTTP handlers of advertiser offers: the spec's ads calls (part 2 §7), offer management and the publisher network's click tracking. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/ads';
import { MSG } from '../../../common/messages';
import type { Config } from '../../config';
import { ACCESS } from '../../platform/http/access';
import { notFound } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import { viewerOf } from '../streams';
import { adViewerOf, fromAnotherSite } from './ad-viewer';
import type { Campaigns } from './campaign';
import type { Delivery } from './delivery';
import type { Offers } from './offers';
import type { Selection } from './selection';
import { VAST_PATH } from './vast';

/** Administrators and advertisers (CREATE AD_OFFER); other users 403. */
const OFFER_MANAGERS = ACCESS.permission('CREATE AD_OFFER');
/** An offer's advertiser and administrators; another advertiser does not see it (404), users without the permission 403. */
const OFFER_OWNER = ACCESS.with(OFFER_MANAGERS, { perms: { 'CREATE AD_OFFER': 404 } });
/** A broadcaster's started stream: without one, 'Please start streaming first' (409). */
const STARTED_STREAM = ACCESS.with(ACCESS.signedIn, { cells: { user: 409, other: 409, moderator: 409, admin: 409, owner: 'ok' } });
/** Anyone records the activity of an offer presented to them; a presentation id (impression_id) issued to someone else is refused (403). */
const PRESENTED_TO = ACCESS.public;

const PLACEMENT_TYPES = { preroll: 'PREROLL', banner: 'BANNER', chat: 'CHAT' } as const;

export function registerAdRoutes(app: FastifyInstance, deps: { offers: Offers; campaigns: Campaigns; selection: Selection; delivery: Delivery; settings: Config['ads'] }) {
  const { offers, selection, delivery } = deps;
  const tags = ['ads'];

  addRoute(app, api.offerList, { auth: 'user', access: OFFER_MANAGERS, tags }, async ({ input, principal, request }) =>
    offers.list(principal, viewerOf(request, principal), input.offset, input.limit));

  addRoute(app, api.offerCreate, { auth: 'user', access: OFFER_MANAGERS, tags }, async ({ input, principal, request }) =>
    ({ offer: await offers.create(principal, viewerOf(request, principal), input) }));

  addRoute(app, api.offerUpdate, { auth: 'user', access: OFFER_OWNER, tags }, async ({ input, principal, request }) =>
    ({ offer: await offers.update(principal, viewerOf(request, principal), input) }));

  addRoute(app, api.offerDelete, { auth: 'user', access: OFFER_OWNER, tags }, async ({ input, principal }) => {
    await deps.campaigns.retire(await offers.managed(principal, input.id));
    return {};
  });

  addRoute(app, api.offerFund, { auth: 'user', access: OFFER_OWNER, tags }, async ({ input, principal, request, idempotencyKey }) => {
    await deps.campaigns.fund(principal, await offers.managed(principal, input.id), input.coins, idempotencyKey);
    return { offer: await offers.one(principal, viewerOf(request, principal), input.id) };
  });

  addRoute(app, api.offerWithdraw, { auth: 'user', access: OFFER_OWNER, tags }, async ({ input, principal, request, idempotencyKey }) => {
    const coins = await deps.campaigns.withdraw(principal, await offers.managed(principal, input.id), idempotencyKey);
    return { offer: await offers.one(principal, viewerOf(request, principal), input.id), coins };
  });

  addRoute(app, api.publicOfferList, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal, request }) =>
    selection.publicList(principal, viewerOf(request, principal), input.offset, input.limit));

  addRoute(app, api.updateStreamOffers, { auth: 'user', access: STARTED_STREAM, tags }, async ({ input, principal, request }) =>
    selection.update(principal, request.skin, input.offer_ids));

  addRoute(app, api.offerPresentation, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request, reply }) =>
    ({ offer: await delivery.present(input.stream_id, input.type, viewerOf(request, principal), adViewerOf(request, principal, reply)) }));

  addRoute(app, api.offerActivity, { auth: 'anonymous', access: PRESENTED_TO, tags }, async ({ input, principal, request }) =>
    ({ counted: !fromAnotherSite(request) && await delivery.record(input.impression_id, input.activity, adViewerOf(request, principal)) }));

  addRoute(app, api.exoClickTracking, { auth: 'anonymous', access: PRESENTED_TO, tags }, async ({ input, principal, request }) =>
    ({ counted: !fromAnotherSite(request) && await delivery.record(input.tracking_id, 'click', adViewerOf(request, principal)) }));

  // The skin's ad units are configuration (ADS_NETWORK, ADS_UNITS); a unit that is not one of them is not there.
  addRoute(app, api.publisher, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, request }) => {
    const units = deps.settings.units[request.skin];
    const placement = input.network === deps.settings.network
      ? (Object.keys(PLACEMENT_TYPES) as Array<keyof typeof PLACEMENT_TYPES>).find((p) => units[p] === input.adunit_id)
      : undefined;
    if (!placement) throw notFound(MSG.adsUnitUnknown);
    const stream = await selection.startedStream(input.user_id);
    if (!stream) throw notFound(MSG.streamNotAvailable);
    const type = PLACEMENT_TYPES[placement];
    return {
      publisher: {
        network: deps.settings.network, adunit_id: input.adunit_id, type, stream_id: stream.id,
        vast_url: type === 'PREROLL' ? `${request.publicOrigin}${VAST_PATH}?stream_id=${stream.id}` : null,
      },
    };
  });
}

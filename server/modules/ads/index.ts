/**
 * Advertiser offers (decisions 0021, 0037): offers and their creatives (`offers.ts`, `creatives.ts`, `media.ts`),
 * their prepaid campaign balances (`campaign.ts`),
 * a broadcaster's choice for the current stream (`selection.ts`), delivery to viewers with measured
 * activity (`delivery.ts`, `vast.ts`) and the commission settlements through the ledger (`settlement.ts`).
 */
import { createPlaybackTokens } from '../../platform/media/playback-tokens';
import type { AppModule, ModuleContext } from '../../platform/module';
import { createMediaAddresses } from '../streams';
import { createCampaigns, type Campaigns } from './campaign';
import { createDelivery, type Delivery } from './delivery';
import { CREATIVES_PREFIX, registerCreativeRoute } from './media';
import { createOffers, type Offers } from './offers';
import { registerAdRoutes } from './routes';
import { createSelection, type Selection } from './selection';
import { createSettlement, SETTLEMENT_EVERY_MS, type Settlement } from './settlement';
import { registerVastRoutes } from './vast';

declare module '../../platform/module' {
  interface ModuleServices {
    ads: { offers: Offers; campaigns: Campaigns; selection: Selection; delivery: Delivery; settlement: Settlement };
  }
}

export async function createAdsModule(ctx: ModuleContext): Promise<AppModule> {
  const { db, config, files } = ctx;
  const creativeTokens = createPlaybackTokens(await ctx.secret('ad-creatives'));
  const addresses = createMediaAddresses(CREATIVES_PREFIX, creativeTokens, config.playbackTtlSeconds);
  const offers = createOffers({ db, files, uploads: ctx.service('uploads'), accounts: ctx.service('accounts'), addresses });
  const selection = createSelection({ db, streamReads: ctx.service('streamReads'), addresses });
  const delivery = createDelivery({ db, streamAccess: ctx.service('streamAccess'), tokens: createPlaybackTokens(await ctx.secret('ad-impressions')), addresses, windowMs: config.ads.windowMs });
  const ledger = ctx.service('ledger');
  const campaigns = createCampaigns({ db, ledger });
  const settlement = createSettlement({ db, ledger, periodMs: config.ads.settlementMs, log: ctx.log });
  ctx.fill('adCampaigns', (streamId) => selection.campaignOf(streamId));

  return {
    name: 'ads',
    services: { ads: { offers, campaigns, selection, delivery, settlement } },
    routes(app) {
      registerCreativeRoute(app, { db, files, tokens: creativeTokens });
      registerVastRoutes(app, { delivery });
      registerAdRoutes(app, { offers, campaigns, selection, delivery, settings: config.ads });
    },
    jobs: [{ name: 'settle-ad-commissions', everyMs: SETTLEMENT_EVERY_MS, roles: ['worker'], run: async () => void (await settlement.run()) }],
  };
}

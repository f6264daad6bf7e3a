/** HTTP handlers of the wallet (spec part 1 §2 wallet routes, part 2 §7 impressions) and the provider's webhook. */
import type { FastifyInstance } from 'fastify';
import { MSG } from '../../../common/messages';
import * as api from '../../../common/api/wallet';
import * as subscriptionsApi from '../../../common/api/subscriptions';
import type { Db } from '../../platform/db/client';
import { badRequest, forbidden, tooManyRequests, unauthorized } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { createThrottle } from '../../platform/throttle';
import { SANDBOX_SIGNATURE_HEADER, type PaymentMethod, type PaymentProvider } from './payment-provider';
import type { CoinSubscriptionService } from './coin-subscriptions';
import type { WalletService } from './service';

/** Charges and card saves per user: enough for a buyer, too few to test stolen cards. */
export const WALLET_THROTTLE = { windowMs: 10 * 60_000, deposits: 10, cards: 10 } as const;
export const SANDBOX_WEBHOOK_PATH = '/api/wallet/webhooks/sandbox';
/** The name of the webhook signing secret in the secrets store. */
export const SANDBOX_WEBHOOK_SECRET = 'payments-sandbox-webhook';

const tags = ['wallet'];
const subscriptionTags = ['subscriptions'];

const sandboxWebhookDocs: RouteDocs = {
  security: [{ sandboxSignature: [] }],
  securitySchemes: {
    sandboxSignature: {
      type: 'apiKey',
      in: 'header',
      name: SANDBOX_SIGNATURE_HEADER,
      description: `HMAC-SHA256 (hex) of the raw body under the \`${SANDBOX_WEBHOOK_SECRET}\` secret.`,
    },
  },
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['type', 'provider_ref'],
          properties: {
            type: { type: 'string', enum: ['charge.succeeded', 'charge.declined', 'charge.insufficient_funds'] },
            provider_ref: { type: 'string', minLength: 1, maxLength: 200, description: 'The charge the deposit answered with' },
            message: { type: 'string', maxLength: 300 },
          },
        },
        example: { type: 'charge.succeeded', provider_ref: 'ch_sbx_4f1c2a9e0b7d4c3a8e6f5d2b1a0c9e8f' },
      },
    },
  },
  responses: {
    200: {
      description: 'Applied: `moved` says whether this delivery moved coins (a repeated delivery moves none).',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['response', 'status', 'moved'],
            properties: { response: { type: 'string', enum: ['success'] }, status: { type: 'string' }, moved: { type: 'boolean' } },
          },
        },
      },
    },
  },
  refusals: [401, 403, 404],
  description: 'Called by the payment processor, not a browser: no session and no CSRF token.',
};

export async function registerWalletRoutes(
  app: FastifyInstance,
  deps: { db: Db; wallet: WalletService; coinSubscriptions: CoinSubscriptionService; providers: Record<PaymentMethod, PaymentProvider> },
): Promise<void> {
  const { db, wallet, coinSubscriptions, providers } = deps;
  const throttle = createThrottle(db, { windowMs: WALLET_THROTTLE.windowMs });
  const limit = async (key: string, max: number) => {
    if ((await throttle.attempt([{ key, limit: max }])).limited) throw tooManyRequests(MSG.tooManyPayments);
  };

  addRoute(app, api.coinPackages, { auth: 'anonymous', access: ACCESS.public, tags }, async () => ({ packages: await wallet.coinPackages() }));

  addRoute(app, api.paymentMethods, { auth: 'anonymous', access: ACCESS.public, tags }, async () => ({
    methods: api.PAYMENT_METHODS.map((id) => ({
      id,
      available: providers[id].available,
      reason: providers[id].available ? null : MSG.paymentMethodUnavailable,
    })),
  }));

  addRoute(app, api.depositCoins, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => {
    await limit(`deposit:${principal.userId}`, WALLET_THROTTLE.deposits);
    return wallet.deposit({
      userId: principal.userId,
      packageId: input.package_id,
      method: input.payment_method,
      cardToken: input.card_token,
      card: input.card,
      renewMonthly: input.renew_monthly,
    });
  });

  // Recurring coin packages: the subscriber's list; cancelling is an e-mailed request support applies (spec part 2 §7).
  addRoute(app, subscriptionsApi.listCoinSubscriptions, { auth: 'user', access: ACCESS.signedIn, tags: subscriptionTags }, async ({ input, principal }) =>
    coinSubscriptions.list(principal.userId, { offset: input.offset, limit: input.limit }),
  );

  addRoute(app, subscriptionsApi.updateCoinSubscription, { auth: 'admin', access: ACCESS.admin, tags: subscriptionTags }, async ({ input }) => ({
    subscription: await coinSubscriptions.update(input.id, input.state),
  }));

  addRoute(app, api.walletBalance, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => ({ balance: await wallet.balances(principal.userId) }));

  addRoute(app, api.walletTransfers, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) =>
    wallet.transfers(principal.userId, { offset: input.offset, limit: input.limit }),
  );

  addRoute(app, api.addCreditCard, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => {
    await limit(`card:${principal.userId}`, WALLET_THROTTLE.cards);
    return { card: await wallet.addCard(principal.userId, input.card) };
  });

  addRoute(app, api.creditCards, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => ({ cards: await wallet.cards(principal.userId) }));

  addRoute(app, api.getImpressionBalance, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => ({
    impression_balance: (await wallet.balances(principal.userId)).IMP,
  }));

  addRoute(app, api.getImpressionPackages, { auth: 'user', access: ACCESS.signedIn, tags }, async () => ({ impression_packages: await wallet.impressionPackages() }));

  addRoute(app, api.buyImpressionsPackage, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal, idempotencyKey }) =>
    wallet.buyImpressions(principal.userId, input.id, idempotencyKey),
  );

  // The processor calls this, not a browser: no session and no CSRF token; the signature over the
  // raw body is the proof. Its own scope keeps the raw-body parser away from every other route.
  const card = providers.card;
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 65_536 }, (_request, body, done) => done(null, body));
    scope.post(
      SANDBOX_WEBHOOK_PATH,
      {
        schema: { tags, summary: 'Charge events from the sandbox processor, signed (HMAC-SHA256 of the body, hex) in X-Sandbox-Signature' },
        config: { csrf: false, access: ACCESS.public, openapi: sandboxWebhookDocs },
      },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
        const check = card.verifyWebhook(raw, request.headers);
        if (!check.ok) {
          if (check.reason === 'unsigned') throw unauthorized(MSG.webhookUnsigned);
          if (check.reason === 'bad_signature') throw forbidden(MSG.webhookBadSignature);
          throw badRequest(MSG.webhookInvalid);
        }
        const outcome = await wallet.applyWebhook(card, check.event);
        return { response: 'success', status: outcome.status, moved: outcome.moved };
      },
    );
  });
}

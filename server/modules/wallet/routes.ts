/** HTTP handlers of the wallet (spec part 1 §2 wallet routes, part 2 §7 impressions) and the provider's webhook. */
import type { FastifyInstance } from 'fastify';
import { MSG } from '../../../common/messages';
import * as api from '../../../common/api/wallet';
import * as subscriptionsApi from '../../../common/api/subscriptions';
import type { Db } from '../../platform/db/client';
import { badRequest, forbidden, notFound, tooManyRequests, unauthorized } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { createThrottle } from '../../platform/throttle';
import { SANDBOX_SIGNATURE_HEADER, type PaymentMethod, type PaymentProvider } from './payment-provider';
import type { CoinSubscriptionService } from './coin-subscriptions';
import type { HostedPaymentProvider } from './hosted-payment';
import type { HostedDeposits } from './hosted-deposits';
import { HOSTED_PROVIDER_NAMES } from './hosted-providers';
import type { WalletHolds } from './holds';
import type { WalletService } from './service';
import type { AccountsService } from '../accounts';

/** Charges and card saves per user: enough for a buyer, too few to test stolen cards. */
export const WALLET_THROTTLE = { windowMs: 10 * 60_000, deposits: 10, cards: 10 } as const;
/** The throttle key of a user's payments: deposits and plans paid on a processor's page count together. */
export const DEPOSIT_THROTTLE_KEY = (userId: number) => `deposit:${userId}`;
export const SANDBOX_WEBHOOK_PATH = '/api/wallet/webhooks/sandbox';
/** Where a hosted provider posts its events: `/api/wallet/webhooks/stripe` (…/paypal, …/btcpay). */
export const hostedWebhookPath = (provider: string) => `/api/wallet/webhooks/${provider}`;
/** The deposit page, where a payer comes back from the processor's page unless the deposit named another. */
export const DEPOSIT_RETURN_PATH = '/user/account/deposit-coins';
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

/** What each hosted provider's webhook signature looks like, for the API description. */
const HOSTED_SIGNATURES: Record<string, { header: string; description: string }> = {
  stripe: { header: 'Stripe-Signature', description: '`t=<unix time>,v1=<hex HMAC-SHA256 of "t.body" under STRIPE_WEBHOOK_SECRET>`; older than 5 minutes is refused.' },
  paypal: { header: 'PAYPAL-TRANSMISSION-SIG', description: "With PAYPAL-TRANSMISSION-ID, -TIME, PAYPAL-CERT-URL and PAYPAL-AUTH-ALGO: checked by asking PayPal's verify-webhook-signature for PAYPAL_WEBHOOK_ID." },
  btcpay: { header: 'BTCPay-Sig', description: '`sha256=<hex HMAC-SHA256 of the body under BTCPAY_WEBHOOK_SECRET>`.' },
};

const hostedWebhookDocs = (provider: string): RouteDocs => {
  const signature = HOSTED_SIGNATURES[provider] ?? { header: `${provider}-signature`, description: "The processor's signature of the raw body." };
  return {
    security: [{ [`${provider}Signature`]: [] }],
    securitySchemes: { [`${provider}Signature`]: { type: 'apiKey', in: 'header', name: signature.header, description: signature.description } },
    requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: `An event as ${provider} sends it.` } } } },
    responses: {
      200: {
        description: 'Stored once by its id and applied: `outcomes` per thing the event said (applied, ignored, deferred until its payment succeeds, replayed).',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['response', 'outcomes'],
              properties: { response: { type: 'string', enum: ['success'] }, outcomes: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
      },
    },
    refusals: [401, 404],
    description: 'Called by the payment processor, not a browser: no session and no CSRF token. A missing signature is 401; a wrong or stale one, or a body that is not an event, 400; 404 while this processor is not configured here.',
  };
};

export async function registerWalletRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    wallet: WalletService;
    coinSubscriptions: CoinSubscriptionService;
    providers: Record<PaymentMethod, PaymentProvider>;
    hosted: Partial<Record<PaymentMethod, HostedPaymentProvider>>;
    hostedDeposits: HostedDeposits;
    walletHolds: WalletHolds;
    accounts: AccountsService;
  },
): Promise<void> {
  const { db, wallet, coinSubscriptions, providers, hosted, hostedDeposits, walletHolds } = deps;
  const throttle = createThrottle(db, { windowMs: WALLET_THROTTLE.windowMs });
  const limit = async (key: string, max: number) => {
    if ((await throttle.attempt([{ key, limit: max }])).limited) throw tooManyRequests(MSG.tooManyPayments);
  };

  addRoute(app, api.coinPackages, { auth: 'anonymous', access: ACCESS.public, tags }, async () => ({ packages: await wallet.coinPackages() }));

  addRoute(app, api.paymentMethods, { auth: 'anonymous', access: ACCESS.public, tags }, async () => ({
    methods: api.PAYMENT_METHODS.map((id) => {
      const available = hosted[id] !== undefined || providers[id].available;
      return { id, available, reason: available ? null : MSG.paymentMethodUnavailable, checkout: hosted[id] !== undefined };
    }),
  }));

  addRoute(app, api.depositCoins, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal, request }) => {
    await limit(DEPOSIT_THROTTLE_KEY(principal.userId), WALLET_THROTTLE.deposits);
    if (hostedDeposits.isHosted(input.payment_method)) {
      if (input.card !== undefined || input.card_token !== undefined) throw badRequest(MSG.cardOnProcessorPage, 'card');
      const contact = await deps.accounts.mailContact(principal.userId);
      const checkout = await hostedDeposits.start({
        userId: principal.userId,
        email: contact?.email ?? '',
        packageId: input.package_id,
        method: input.payment_method,
        renewMonthly: input.renew_monthly ?? false,
        returnUrl: `${request.publicOrigin}${input.return_path ?? DEPOSIT_RETURN_PATH}`,
        address: request.ip,
      });
      const pkg = await wallet.activeCoinPackage(input.package_id);
      return { balance: await wallet.balances(principal.userId), coins: pkg.coins, transfer_id: 0, coin_subscription: null, checkout };
    }
    return wallet.deposit({
      userId: principal.userId,
      packageId: input.package_id,
      method: input.payment_method,
      cardToken: input.card_token,
      card: input.card,
      renewMonthly: input.renew_monthly,
      address: request.ip,
    });
  });

  addRoute(app, api.depositResult, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) =>
    hostedDeposits.result(principal.userId, input.payment_id),
  );

  addRoute(app, api.refundPayment, { auth: 'admin', access: ACCESS.admin, tags }, async ({ input, principal }) => ({
    ...(await hostedDeposits.refund(principal.userId, input.payment_id, input.amount)),
  }));

  // Recurring coin packages: the subscriber's list; cancelling is an e-mailed request support applies (spec part 2 §7).
  addRoute(app, subscriptionsApi.listCoinSubscriptions, { auth: 'user', access: ACCESS.signedIn, tags: subscriptionTags }, async ({ input, principal }) =>
    coinSubscriptions.list(principal.userId, { offset: input.offset, limit: input.limit }),
  );

  addRoute(app, subscriptionsApi.updateCoinSubscription, { auth: 'admin', access: ACCESS.admin, tags: subscriptionTags }, async ({ input }) => ({
    subscription: await coinSubscriptions.update(input.id, input.state),
  }));

  addRoute(app, api.walletBalance, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => ({ balance: await wallet.balances(principal.userId) }));

  addRoute(app, api.walletHold, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => ({ hold: await walletHolds.hold(principal.userId) }));

  // The console's queue of held accounts and a user's deposits, for refunds (decision 0057).
  addRoute(app, api.heldAccounts, { auth: 'admin', access: ACCESS.admin, tags }, async () => ({ cases: await walletHolds.heldCases() }));

  addRoute(app, api.userDeposits, { auth: 'admin', access: ACCESS.admin, tags }, async ({ input }) => walletHolds.userDeposits(input.username, input.limit));

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
    // Registered whether or not the processor is configured here, so the route table names every one.
    const configured = new Map(Object.values(hosted).map((provider) => [provider.name, provider]));
    for (const name of HOSTED_PROVIDER_NAMES) {
      const provider = configured.get(name);
      scope.post(
        hostedWebhookPath(name),
        {
          schema: { tags, summary: `Payment events from ${name}, signed with its webhook secret; each stored once by its id (404 while ${name} is not configured)` },
          config: { csrf: false, access: ACCESS.public, openapi: hostedWebhookDocs(name) },
        },
        async (request) => {
          if (!provider) throw notFound(MSG.processorNotConfigured);
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
          const check = await provider.verifyWebhook(raw, request.headers);
          if (!check.ok) {
            if (check.reason === 'unsigned') throw unauthorized(MSG.webhookUnsigned);
            throw badRequest(check.reason === 'bad_signature' ? MSG.webhookBadSignature : MSG.webhookInvalid);
          }
          return { response: 'success', outcomes: await hostedDeposits.receiveWebhook(provider, check.events) };
        },
      );
    }
  });
}

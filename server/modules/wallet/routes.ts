/** HTTP handlers of the wallet (spec part 1 §2 wallet routes, part 2 §7 impressions) and the provider's webhook. */
import type { FastifyInstance } from 'fastify';
import { IDEMPOTENCY_HEADER } from '../../../common/api/tips';
import * as api from '../../../common/api/wallet';
import type { Db } from '../../platform/db/client';
import { AppError, badRequest, tooManyRequests } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import { loadSecret } from '../../platform/secrets';
import { createThrottle } from '../../platform/throttle';
import type { Ledger } from '../ledger/service';
import { createPaymentProviders } from './payment-provider';
import { createWalletService } from './service';

/** Charges and card saves per user: enough for a buyer, too few to test stolen cards. */
export const WALLET_THROTTLE = { windowMs: 10 * 60_000, deposits: 10, cards: 10 } as const;
export const SANDBOX_WEBHOOK_PATH = '/api/wallet/webhooks/sandbox';
/** The name of the webhook signing secret in the secrets store. */
export const SANDBOX_WEBHOOK_SECRET = 'payments-sandbox-webhook';

const tags = ['wallet'];
const KEY = /^[\x21-\x7e]{1,200}$/;

export async function registerWalletRoutes(app: FastifyInstance, deps: { db: Db; ledger: Ledger; payments: 'sandbox' }): Promise<void> {
  const { db } = deps;
  const providers = createPaymentProviders(deps.payments, { webhookSecret: await loadSecret(db, SANDBOX_WEBHOOK_SECRET) });
  const wallet = createWalletService({ db, ledger: deps.ledger, providers });
  const throttle = createThrottle(db, { windowMs: WALLET_THROTTLE.windowMs });
  const limit = async (key: string, max: number) => {
    if ((await throttle.attempt([{ key, limit: max }])).limited) throw tooManyRequests('Too many payment attempts. Please wait a few minutes and try again.');
  };

  addRoute(app, api.coinPackages, { auth: 'anonymous', tags }, async () => ({ packages: await wallet.coinPackages() }));

  addRoute(app, api.depositCoins, { auth: 'user', tags }, async ({ input, principal }) => {
    await limit(`deposit:${principal.userId}`, WALLET_THROTTLE.deposits);
    return wallet.deposit({
      userId: principal.userId,
      packageId: input.package_id,
      method: input.payment_method,
      cardToken: input.card_token,
      card: input.card,
    });
  });

  addRoute(app, api.walletBalance, { auth: 'user', tags }, async ({ principal }) => ({ balance: await wallet.balances(principal.userId) }));

  addRoute(app, api.walletTransfers, { auth: 'user', tags }, async ({ input, principal }) =>
    wallet.transfers(principal.userId, { offset: input.offset, limit: input.limit }),
  );

  addRoute(app, api.addCreditCard, { auth: 'user', tags }, async ({ input, principal }) => {
    await limit(`card:${principal.userId}`, WALLET_THROTTLE.cards);
    return { card: await wallet.addCard(principal.userId, input.card) };
  });

  addRoute(app, api.creditCards, { auth: 'user', tags }, async ({ principal }) => ({ cards: await wallet.cards(principal.userId) }));

  addRoute(app, api.getImpressionBalance, { auth: 'user', tags }, async ({ principal }) => ({
    impression_balance: (await wallet.balances(principal.userId)).IMP,
  }));

  addRoute(app, api.getImpressionPackages, { auth: 'user', tags }, async () => ({ impression_packages: await wallet.impressionPackages() }));

  addRoute(app, api.buyImpressionsPackage, { auth: 'user', tags }, async ({ input, principal, request }) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key !== undefined && (typeof key !== 'string' || !KEY.test(key))) throw badRequest('The Idempotency-Key header is not valid.', IDEMPOTENCY_HEADER);
    return wallet.buyImpressions(principal.userId, input.id, key);
  });

  // The processor calls this, not a browser: no session and no CSRF token; the signature over the
  // raw body is the proof. Its own scope keeps the raw-body parser away from every other route.
  const card = providers.card;
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 65_536 }, (_request, body, done) => done(null, body));
    scope.post(
      SANDBOX_WEBHOOK_PATH,
      { schema: { tags, summary: 'Charge events from the sandbox processor, signed (HMAC-SHA256 of the body, hex) in X-Sandbox-Signature' }, config: { csrf: false } },
      async (request) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
        const check = card.verifyWebhook(raw, request.headers);
        if (!check.ok) {
          if (check.reason === 'unsigned') throw new AppError(401, 'unauthorized', 'The webhook signature is missing.');
          if (check.reason === 'bad_signature') throw new AppError(403, 'forbidden', 'The webhook signature is not valid.');
          throw badRequest('The webhook event is not valid.');
        }
        const outcome = await wallet.applyWebhook(card, check.event);
        return { response: 'success', status: outcome.status, moved: outcome.moved };
      },
    );
  });
}

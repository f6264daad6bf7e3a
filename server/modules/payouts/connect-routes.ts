/**
 * Stripe Connect's routes (decision 0063): the creator choosing Stripe and coming back from its
 * onboarding, and the payouts webhook Stripe posts `account.updated` and `transfer.*` events to. The
 * routes exist whether or not Stripe is configured (the route table names them all) and answer 404 while
 * it is not.
 */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/payouts';
import { MSG } from '../../../common/messages';
import { ACCESS } from '../../platform/http/access';
import { badRequest, notFound, unauthorized } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import { addRoute } from '../../platform/http/route';
import { STRIPE_SIGNATURE_HEADER } from '../wallet';
import type { ConnectAccounts } from './connect-accounts';
import type { ProcessorPayouts } from './processor-payouts';
import type { StripeConnect } from './stripe-connect';

export const STRIPE_PAYOUTS_WEBHOOK_PATH = '/api/payouts/webhooks/stripe';
export const EARNINGS_PATH = '/user/account/earnings';

export interface StripePayouts {
  accounts: ConnectAccounts;
  payouts: ProcessorPayouts;
  api: Pick<StripeConnect, 'verifyWebhook' | 'account'>;
}

const tags = ['payouts'];

const webhookDocs: RouteDocs = {
  security: [{ stripeConnectSignature: [] }],
  securitySchemes: {
    stripeConnectSignature: {
      type: 'apiKey', in: 'header', name: 'Stripe-Signature',
      description: '`t=<unix time>,v1=<hex HMAC-SHA256 of "t.body">` under one of STRIPE_CONNECT_WEBHOOK_SECRET\'s secrets; older than 5 minutes is refused.',
    },
  },
  requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A Stripe event: account.updated (Connect), transfer.created, transfer.updated or transfer.reversed.' } } } },
  responses: {
    200: {
      description: 'Applied: the account read again from Stripe, or the payout settled from its transfer as Stripe has it now (a repeated event changes nothing).',
      content: { 'application/json': { schema: { type: 'object', required: ['response'], properties: { response: { type: 'string', enum: ['success'] } } } } },
    },
  },
  refusals: [401, 404],
  description: 'Called by Stripe, not a browser: no session and no CSRF token.',
};

export async function registerConnectRoutes(app: FastifyInstance, stripe: StripePayouts | null) {
  const configured = () => {
    if (!stripe) throw notFound(MSG.processorNotConfigured);
    return stripe;
  };

  addRoute(app, api.startStripeOnboarding, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal, request }) =>
    configured().accounts.start(principal.userId, undefined, `${request.publicOrigin}${EARNINGS_PATH}`));

  addRoute(app, api.refreshStripeAccount, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => {
    const account = await configured().accounts.refresh(principal.userId);
    if (!account) throw notFound(MSG.stripeAccountMissing);
    return { stripe: account };
  });

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 65_536 }, (_request, body, done) => done(null, body));
    scope.post(
      STRIPE_PAYOUTS_WEBHOOK_PATH,
      {
        schema: { tags, summary: 'Stripe Connect events for payouts (accounts and transfers), signed; 404 while Stripe Connect is not configured' },
        config: { csrf: false, access: ACCESS.public, openapi: webhookDocs },
      },
      async (request) => {
        const { accounts, payouts, api: connect } = configured();
        const signature = request.headers[STRIPE_SIGNATURE_HEADER];
        if (typeof signature !== 'string' || signature === '') throw unauthorized(MSG.webhookUnsigned);
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
        let event;
        try {
          event = await connect.verifyWebhook(raw, signature);
        } catch {
          throw badRequest(MSG.webhookInvalid);
        }
        if (!event) throw badRequest(MSG.webhookBadSignature);
        // Events come late, twice or out of order: the account is read as Stripe has it now.
        if (event.kind === 'account') await accounts.record(await connect.account(event.account));
        if (event.kind === 'transfer') await payouts.settle(event.requestId, event.answer);
        return { response: 'success' };
      },
    );
  });
}

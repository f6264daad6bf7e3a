/**
 * PayPal Payouts' routes (decision 0064): the creator choosing PayPal (the email the payouts are sent
 * to), and the payouts webhook PayPal posts `PAYMENT.PAYOUTS-ITEM.*` events to. Both exist whether or not
 * PayPal payouts are configured (the route table names them all) and answer 404 while they are not.
 */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/payouts';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { ACCESS } from '../../platform/http/access';
import { appError, badRequest, notFound, unauthorized } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import { addRoute } from '../../platform/http/route';
import { ProcessorUnavailable } from '../wallet';
import { shownMethod } from './methods';
import type { PayPalPayouts } from './paypal-payouts';
import type { ProcessorPayouts } from './processor-payouts';
import { payoutMethods } from './tables';

export const PAYPAL_PAYOUTS_WEBHOOK_PATH = '/api/payouts/webhooks/paypal';

export interface PayPalPayoutsSetup {
  api: Pick<PayPalPayouts, 'verifyWebhook'>;
  payouts: ProcessorPayouts;
}

const tags = ['payouts'];

const webhookDocs: RouteDocs = {
  security: [{ paypalTransmission: [] }],
  securitySchemes: {
    paypalTransmission: {
      type: 'apiKey', in: 'header', name: 'PAYPAL-TRANSMISSION-SIG',
      description: 'With PAYPAL-TRANSMISSION-ID, -TIME, PAYPAL-CERT-URL and PAYPAL-AUTH-ALGO: checked by PayPal (POST /v1/notifications/verify-webhook-signature) for the webhook PAYPAL_PAYOUTS_WEBHOOK_ID.',
    },
  },
  requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', description: 'A PayPal webhook event: PAYMENT.PAYOUTS-ITEM.SUCCEEDED, FAILED, DENIED, BLOCKED, RETURNED, UNCLAIMED, REFUNDED, HELD, or PAYMENT.PAYOUTSBATCH.*.' } } } },
  responses: {
    200: {
      description: 'Applied: the payout settled from its batch as PayPal has it now (a repeated event changes nothing); events of batches not ours are ignored.',
      content: { 'application/json': { schema: { type: 'object', required: ['response'], properties: { response: { type: 'string', enum: ['success'] } } } } },
    },
  },
  refusals: [401, 404, 503],
  description: 'Called by PayPal, not a browser: no session and no CSRF token.',
};

export async function registerPayPalPayoutRoutes(app: FastifyInstance, deps: { db: Db; paypal: PayPalPayoutsSetup | null }) {
  const configured = () => {
    if (!deps.paypal) throw notFound(MSG.processorNotConfigured);
    return deps.paypal;
  };

  addRoute(app, api.choosePayPal, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => {
    configured();
    // The email is the receiver: PayPal pays it, or holds the money for it to claim (30 days).
    const values = { method: 'paypal' as const, accountHolder: input.email, accountNumber: input.email, bankName: 'PayPal', country: '', completedAt: new Date(), updatedAt: new Date() };
    const [row] = await deps.db.insert(payoutMethods).values({ userId: principal.userId, ...values })
      .onConflictDoUpdate({ target: payoutMethods.userId, set: values }).returning();
    return { method: shownMethod(row!)! };
  });

  await app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 65_536 }, (_request, body, done) => done(null, body));
    scope.post(
      PAYPAL_PAYOUTS_WEBHOOK_PATH,
      {
        schema: { tags, summary: 'PayPal Payouts events, checked by PayPal; 404 while PayPal payouts are not configured' },
        config: { csrf: false, access: ACCESS.public, openapi: webhookDocs },
      },
      async (request) => {
        const { api: paypal, payouts } = configured();
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.from('');
        let check;
        try {
          check = await paypal.verifyWebhook(raw, request.headers);
        } catch (error) {
          // PayPal retries a delivery that was not answered 2xx.
          if (error instanceof ProcessorUnavailable) throw appError('unavailable');
          throw error;
        }
        if (!check.ok) {
          if (check.reason === 'unsigned') throw unauthorized(MSG.webhookUnsigned);
          throw badRequest(check.reason === 'bad_signature' ? MSG.webhookBadSignature : MSG.webhookInvalid);
        }
        if (check.event.kind === 'payout') await payouts.settle(check.event.requestId, check.event.answer);
        return { response: 'success' };
      },
    );
  });
}

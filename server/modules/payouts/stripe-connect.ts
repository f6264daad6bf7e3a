/**
 * Stripe Connect as a payout method (decision 0063), Stripe's words turned into ours here and nowhere
 * else: a creator's Express account and its onboarding link, a payout as a transfer to that account
 * (keyed `po_<id>`, grouped `po_<id>` so it can be found again), and the signed events of the payouts
 * webhook. Money has left the platform when Stripe answers the transfer: the Express account then pays
 * the creator's bank on Stripe's schedule, and a payout failing there stays in their Stripe balance.
 */
import Stripe from 'stripe';
import { stripeClient } from '../wallet';

export interface StripeConnectOptions {
  secretKey: string;
  apiBase?: string;
  /** The signing secrets of the endpoints posting to the payouts webhook (Connect and account events). */
  webhookSecrets: string[];
  toleranceSeconds?: number;
}

/** What a payout's transfer says: made (paid), taken back, or refused with no transfer made. */
export type TransferAnswer =
  | { state: 'paid'; ref: string }
  | { state: 'reversed'; ref: string; reason: string }
  | { state: 'failed'; ref: null; reason: string };

export interface ConnectAccountStatus {
  account: string;
  details_submitted: boolean;
  payouts_enabled: boolean;
}

/** A verified event, in our words: an account to read again, or a payout's transfer to settle. */
export type ConnectEvent = { kind: 'account'; account: string } | { kind: 'transfer'; requestId: number; answer: TransferAnswer } | { kind: 'ignored'; type: string };

export const transferGroup = (requestId: number) => `po_${requestId}`;
const requestOfGroup = (group: string | null | undefined) => {
  const match = /^po_(\d{1,15})$/.exec(group ?? '');
  return match ? Number(match[1]) : null;
};

const statusOf = (account: Stripe.Account): ConnectAccountStatus => ({
  account: account.id, details_submitted: account.details_submitted === true, payouts_enabled: account.payouts_enabled === true,
});

function answerOf(transfer: Stripe.Transfer): TransferAnswer {
  return transfer.reversed ? { state: 'reversed', ref: transfer.id, reason: 'Stripe reversed the transfer' } : { state: 'paid', ref: transfer.id };
}

/** Stripe's refusals that are final for this transfer (no money moved); anything else is asked again later. */
const REFUSED_REASONS: Record<string, string> = {
  balance_insufficient: 'The platform\'s Stripe balance could not cover the transfer',
  account_invalid: 'Stripe cannot pay this Express account',
};

export function createStripeConnect(options: StripeConnectOptions) {
  const stripe = stripeClient(options);
  const tolerance = options.toleranceSeconds ?? 300;

  function verified(rawBody: Buffer, signature: string): Stripe.Event | null {
    for (const secret of options.webhookSecrets) {
      try {
        return stripe.webhooks.constructEvent(rawBody, signature, secret, tolerance);
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
      }
    }
    return null;
  }

  return {
    /** The creator's Express account, made once: the key names the creator, so a retry answers the same account. */
    async createAccount(userId: number, email: string | undefined): Promise<ConnectAccountStatus> {
      const account = await stripe.accounts.create({
        type: 'express',
        ...(email ? { email } : {}),
        capabilities: { transfers: { requested: true } },
        metadata: { user_id: String(userId) },
      }, { idempotencyKey: `connect-account-${userId}` });
      return statusOf(account);
    },

    async onboardingLink(account: string, returnUrl: string, refreshUrl: string): Promise<string> {
      const link = await stripe.accountLinks.create({ account, type: 'account_onboarding', return_url: returnUrl, refresh_url: refreshUrl });
      return link.url;
    },

    async account(account: string): Promise<ConnectAccountStatus> {
      return statusOf(await stripe.accounts.retrieve(account));
    },

    /** Pays a request: answers the transfer, or a refusal; throws while the outcome is unknown (retried later with the same key). */
    async pay(p: { requestId: number; userId: number; usdCents: number; destination: string }): Promise<TransferAnswer> {
      try {
        const transfer = await stripe.transfers.create({
          amount: p.usdCents, currency: 'usd', destination: p.destination, transfer_group: transferGroup(p.requestId),
          metadata: { payout_request: String(p.requestId), user_id: String(p.userId) },
        }, { idempotencyKey: transferGroup(p.requestId) });
        return answerOf(transfer);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code && REFUSED_REASONS[error.code]) {
          return { state: 'failed', ref: null, reason: REFUSED_REASONS[error.code]! };
        }
        throw error;
      }
    },

    /** The request's transfer as Stripe has it now; null when none was made. */
    async find(request: { id: number }): Promise<TransferAnswer | null> {
      const list = await stripe.transfers.list({ transfer_group: transferGroup(request.id), limit: 1 });
      return list.data[0] ? answerOf(list.data[0]) : null;
    },

    /** A signed event of the payouts webhook; null when no configured secret signed it. */
    async verifyWebhook(rawBody: Buffer, signature: string): Promise<ConnectEvent | null> {
      const event = verified(rawBody, signature);
      if (!event) return null;
      switch (event.type) {
        case 'account.updated':
          return { kind: 'account', account: event.data.object.id };
        case 'transfer.created':
        case 'transfer.updated':
        case 'transfer.reversed': {
          const requestId = requestOfGroup(event.data.object.transfer_group);
          if (requestId === null) return { kind: 'ignored', type: event.type };
          // Events come late, twice or out of order: the transfer is read as it is now.
          return { kind: 'transfer', requestId, answer: answerOf(await stripe.transfers.retrieve(event.data.object.id)) };
        }
        default:
          return { kind: 'ignored', type: event.type };
      }
    },
  };
}

export type StripeConnect = ReturnType<typeof createStripeConnect>;

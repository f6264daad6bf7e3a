/** The wallet: coin and impression packages, deposits through a payment provider, balances, history and saved cards. */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createCoinSubscriptionService, createRenewalNotices, type CoinSubscriptionService } from './coin-subscriptions';
import { createHostedDeposits, type HostedDeposits } from './hosted-deposits';
import { createHostedProviders } from './hosted-providers';
import { createWalletHolds, type WalletHolds } from './holds';
import { createPaymentProviders } from './payment-provider';
import { createReceipts } from './receipts';
import { createDepositGate } from './risk/gate';
import { rulesScorer } from './risk/scorer';
import { directCharger, offSessionCharger } from './renewal-chargers';
import { registerWalletRoutes, SANDBOX_WEBHOOK_SECRET } from './routes';
import { createWalletService, type PaymentCredited, type WalletService } from './service';

export type { PaymentCredited, WalletService } from './service';
export type { HostedDeposits } from './hosted-deposits';
export { DEPOSIT_THROTTLE_KEY, WALLET_THROTTLE } from './routes';
export type { CoinSubscriptionService } from './coin-subscriptions';
export type { WalletHolds } from './holds';
export { shareCardSql } from './card-keys';
export { ensureWalletPackages } from './packages';
export { payPalSettings } from './providers/paypal';
// PayPal's API for the payouts module (decision 0064): its token, its webhook check, its error answers.
export { createPayPalClient, PAYPAL, paypalIssue, type PayPalCredentials } from './providers/paypal-client';
export { field, ProcessorUnavailable, text } from './providers/provider-http';
export { centsToDecimal } from './providers/amounts';
export { btcPaySettings } from './providers/btcpay';
export { hostedWebhookPath } from './routes';
export { SANDBOX_CARDS } from './payment-provider';
export { stripeClient, STRIPE_SIGNATURE_HEADER } from './providers/stripe';

declare module '../../platform/module' {
  interface ModuleServices {
    wallet: WalletService;
    coinSubscriptions: CoinSubscriptionService;
    hostedDeposits: HostedDeposits;
    /** Held wallets: `canWithdraw` is what a payout asks (decision 0057). */
    walletHolds: WalletHolds;
  }
  interface ModuleHooks {
    /** A credited deposit that was bought to pay a plan takes the subscription in its settlement (decision 0059). */
    paymentCredited: PaymentCredited;
  }
}

export async function createWalletModule(ctx: ModuleContext): Promise<AppModule> {
  const providers = createPaymentProviders(ctx.config.payments === 'sandbox' ? 'sandbox' : 'none', { webhookSecret: await ctx.secret(SANDBOX_WEBHOOK_SECRET) });
  const hosted = createHostedProviders(ctx.config);
  const accounts = ctx.service('accounts');
  const notices = createRenewalNotices({ db: ctx.db, accounts, mailer: ctx.platform.mailer, log: ctx.log });
  const { threshold, limits } = ctx.config.depositRisk;
  const gate = createDepositGate({
    db: ctx.db, scorer: rulesScorer({ maxCents: limits.maxCents }), limits, threshold, accountCreatedAt: (userId) => accounts.createdAt(userId), log: ctx.log,
  });
  const wallet = createWalletService({
    db: ctx.db, ledger: ctx.service('ledger'), accounts, providers, notices, outbox: ctx.platform.outbox, gate, paymentCredited: ctx.hook('paymentCredited', 'subscriptions'),
  });
  const hostedDeposits = createHostedDeposits({
    db: ctx.db, ledger: ctx.service('ledger'), hosted, settlement: wallet.settlement, notices, activeCoinPackage: wallet.activeCoinPackage, log: ctx.log, gate,
  });
  const charger = hosted.card ? offSessionCharger(hosted.card) : directCharger(providers.card);
  const coinSubscriptions = createCoinSubscriptionService({ db: ctx.db, charger, settlement: wallet.settlement, notices, log: ctx.log });
  const walletHolds = createWalletHolds({
    db: ctx.db, ledger: ctx.service('ledger'), accounts, refundable: (name) => Object.values(hosted).some((provider) => provider.name === name),
  });
  const receipts = createReceipts({ db: ctx.db, accounts, mailer: ctx.platform.mailer });
  ctx.events.onDurable('deposit.credited', ({ paymentId }) => receipts.send(paymentId));
  // Saved cards are the person's, not the books': they go with the account (balances stay in the ledger),
  // and the recurring packages paid with them end.
  ctx.events.onDurable('account.deleted', ({ userId }) => wallet.forgetCards(userId));
  return {
    name: 'wallet',
    services: { wallet, coinSubscriptions, hostedDeposits, walletHolds },
    routes: (app) => registerWalletRoutes(app, { db: ctx.db, wallet, coinSubscriptions, providers, hosted, hostedDeposits, walletHolds, accounts }),
    jobs: [
      // Several instances may run it at once: each period is charged once (coin-subscriptions.ts).
      { name: 'renew-coin-subscriptions', everyMs: 60_000, roles: ['worker'], run: async () => void (await coinSubscriptions.renewDue(new Date())) },
      // Payments left pending past their checkout's expiry (a lost webhook): the processor is asked; a lease keeps instances apart.
      { name: 'reconcile-pending-payments', everyMs: 60_000, roles: ['worker'], run: async () => void (await hostedDeposits.reconcile(new Date())) },
    ],
  };
}

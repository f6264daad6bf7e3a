/** The wallet: coin and impression packages, deposits through a payment provider, balances, history and saved cards. */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createCoinSubscriptionService, createRenewalNotices, type CoinSubscriptionService } from './coin-subscriptions';
import { createPaymentProviders } from './payment-provider';
import { registerWalletRoutes, SANDBOX_WEBHOOK_SECRET } from './routes';
import { createWalletService, type WalletService } from './service';

export type { WalletService } from './service';
export type { CoinSubscriptionService } from './coin-subscriptions';
export { shareCardSql } from './card-keys';
export { ensureWalletPackages } from './packages';

declare module '../../platform/module' {
  interface ModuleServices {
    wallet: WalletService;
    coinSubscriptions: CoinSubscriptionService;
  }
}

export async function createWalletModule(ctx: ModuleContext): Promise<AppModule> {
  const providers = createPaymentProviders(ctx.config.payments, { webhookSecret: await ctx.secret(SANDBOX_WEBHOOK_SECRET) });
  const notices = createRenewalNotices({ db: ctx.db, accounts: ctx.use('accounts'), mailer: ctx.platform.mailer, log: ctx.log });
  const wallet = createWalletService({ db: ctx.db, ledger: ctx.use('ledger'), accounts: ctx.use('accounts'), providers, notices });
  const coinSubscriptions = createCoinSubscriptionService({ db: ctx.db, provider: providers.card, settlement: wallet.settlement, notices, log: ctx.log });
  // Saved cards are the person's, not the books': they go with the account (balances stay in the ledger),
  // and the recurring packages paid with them end.
  ctx.events.onDurable('account.deleted', ({ userId }) => wallet.forgetCards(userId));
  return {
    name: 'wallet',
    services: { wallet, coinSubscriptions },
    routes: (app) => registerWalletRoutes(app, { db: ctx.db, wallet, coinSubscriptions, providers }),
    // Several instances may run it at once: each period is charged once (coin-subscriptions.ts).
    jobs: [{ name: 'renew-coin-subscriptions', everyMs: 60_000, roles: ['worker'], run: async () => void (await coinSubscriptions.renewDue(new Date())) }],
  };
}

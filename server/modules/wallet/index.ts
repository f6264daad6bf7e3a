/** The wallet: coin and impression packages, deposits through a payment provider, balances, history and saved cards. */
import type { AppModule, ModuleContext } from '../../platform/module';
import { createPaymentProviders } from './payment-provider';
import { registerWalletRoutes, SANDBOX_WEBHOOK_SECRET } from './routes';
import { createWalletService, type WalletService } from './service';

export type { WalletService } from './service';

declare module '../../platform/module' {
  interface ModuleServices {
    wallet: WalletService;
  }
}

export async function createWalletModule(ctx: ModuleContext): Promise<AppModule> {
  const providers = createPaymentProviders(ctx.config.payments, { webhookSecret: await ctx.secret(SANDBOX_WEBHOOK_SECRET) });
  const wallet = createWalletService({ db: ctx.db, ledger: ctx.use('ledger'), accounts: ctx.use('accounts'), providers });
  // Saved cards are the person's, not the books': they go with the account (balances stay in the ledger).
  ctx.events.on('account.deleted', ({ userId }) => wallet.forgetCards(userId));
  return { name: 'wallet', services: { wallet }, routes: (app) => registerWalletRoutes(app, { db: ctx.db, wallet, providers }) };
}

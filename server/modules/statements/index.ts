/**
 * Tax information and statements (decision 0062): the tax form (the tax id sealed with TAX_DATA_KEY,
 * shown masked), whether it is filled (payout readiness asks `taxInfo.complete`), and a creator's
 * monthly statements and year's summary read from the books.
 */
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerStatementRoutes } from './routes';
import { createStatements, type Statements } from './statements';
import { createTaxIdCipher, taxKeyFrom, type TaxIdCipher } from './tax-crypto';
import { createTaxInfoService, type TaxInfoService } from './tax-info';

export type { Statements } from './statements';
export type { TaxInfoService } from './tax-info';
export { taxKeyFrom } from './tax-crypto';

declare module '../../platform/module' {
  interface ModuleServices {
    taxInfo: TaxInfoService;
    statements: Statements;
  }
}

export const TAX_KEY_SECRET = 'tax-data-key';

/**
 * TAX_DATA_KEY when set (config.ts refuses a malformed one, and its absence in production with payments
 * on). Elsewhere, outside production, a key made for this installation and kept in its database, which
 * is said at start: it protects nothing from whoever reads the database. In production without one the
 * form answers 503.
 */
async function taxCipher(ctx: ModuleContext): Promise<TaxIdCipher | null> {
  if (ctx.config.taxDataKey) return createTaxIdCipher(taxKeyFrom(ctx.config.taxDataKey)!);
  if (ctx.config.env === 'production') {
    ctx.log.warn('TAX_DATA_KEY is not set: the tax information form is off');
    return null;
  }
  ctx.log.warn('TAX_DATA_KEY is not set: tax ids are sealed with a key made for this installation and kept in its database (development only; set TAX_DATA_KEY in production)');
  return createTaxIdCipher(taxKeyFrom(await ctx.secret(TAX_KEY_SECRET))!);
}

export async function createStatementsModule(ctx: ModuleContext): Promise<AppModule> {
  const system = ctx.service('system');
  const accounts = ctx.service('accounts');
  const taxInfo = createTaxInfoService({
    db: ctx.db,
    cipher: await taxCipher(ctx),
    countryCodes: async () => new Set((await system.listCountries()).map((country) => country.code)),
  });
  const statements = createStatements({
    ledger: ctx.service('ledger'),
    usernameOf: async (userId) => (await accounts.publicUsers([userId])).get(userId)?.username ?? null,
  });
  return {
    name: 'statements',
    services: { taxInfo, statements },
    routes: (app) => registerStatementRoutes(app, { db: ctx.db, taxInfo, statements }),
  };
}

/** Tips on streams, tip menus, supporters and earnings. Every coin moves through the ledger; a committed tip is announced as `tip.received`. */
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerTipRoutes } from './routes';
import { createTipMenu } from './menu';
import { createTipsService, type TipsService } from './service';
import './events';

export type { TipsService } from './service';
export { pastTipTransfer, type PastTip } from './past-tip';

declare module '../../platform/module' {
  interface ModuleServices {
    tips: TipsService;
  }
}

export function createTipsModule(ctx: ModuleContext): AppModule {
  const menu = createTipMenu({ db: ctx.db, accounts: ctx.service('accounts') });
  const tips = createTipsService({
    ledger: ctx.service('ledger'),
    streamReads: ctx.service('streamReads'),
    streamAccess: ctx.service('streamAccess'),
    streamViewing: ctx.service('streamViewing'),
    accounts: ctx.service('accounts'),
    fees: ctx.config.platformFees,
    outbox: ctx.platform.outbox,
    menu,
  });
  return { name: 'tips', services: { tips }, routes: (app) => registerTipRoutes(app, { tips, menu, streamReads: ctx.service('streamReads') }) };
}

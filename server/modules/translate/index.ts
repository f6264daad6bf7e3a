/** Chat translation through a LibreTranslate-compatible server (TRANSLATE_URL); hidden without one. */
import type { AppModule, ModuleContext } from '../../platform/module';
import { registerTranslateRoutes } from './routes';

export function createTranslateModule({ db, config }: ModuleContext): AppModule {
  return { name: 'translate', routes: (app) => registerTranslateRoutes(app, { db, translateUrl: config.translateUrl }) };
}

/** HTTP handler of chat translation. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/translate';
import type { Db } from '../../platform/db/client';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { createTranslateService } from './service';

export function registerTranslateRoutes(app: FastifyInstance, deps: { db: Db; translateUrl: string | undefined }): void {
  const translator = createTranslateService({ db: deps.db, url: deps.translateUrl, log: app.log });
  addRoute(app, api.translate, { auth: 'user', access: ACCESS.signedIn, tags: ['chat'] }, async ({ input, principal }) => ({
    translated: await translator.translate(principal.userId, input.message, input.lang),
  }));
}

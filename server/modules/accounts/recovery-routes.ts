/** The five-step password recovery (spec part 2 §7 recovery calls); every call is open to guests. */
import { ACCESS } from '../../platform/http/access';
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/recovery';
import { addRoute, type RouteOptions } from '../../platform/http/route';
import type { RecoveryService } from './recovery-service';

export function registerRecoveryRoutes(app: FastifyInstance, deps: { recovery: RecoveryService }): void {
  const { recovery } = deps;
  const options: RouteOptions<'anonymous'> = { auth: 'anonymous', access: ACCESS.public, tags: ['accounts'] };

  addRoute(app, api.getRecoveryEmail, options, async ({ input, request }) => ({
    email: await recovery.maskedEmail(input.username, request.ip),
  }));

  addRoute(app, api.sendRecoveryCode, options, async ({ input, request }) =>
    recovery.sendCode(input.username, request.skin, request.ip),
  );

  addRoute(app, api.checkRecoveryCode, options, async ({ input, request }) => {
    await recovery.checkCode(input.username, input.recoveryCode, request.ip);
    return {};
  });

  addRoute(app, api.resetPassword, options, async ({ input, request }) => {
    await recovery.resetPassword(input.username, input.recoveryCode, input.userPassword, request.ip);
    return {};
  });
}

/** HTTP handlers of a creator's vault (decision 0088): every call is the signed-in member's own. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/vault';
import { canUpload } from '../../../common/permissions';
import { MSG } from '../../../common/messages';
import { ACCESS } from '../../platform/http/access';
import { forbidden } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import { viewerOf } from '../streams';
import type { Vault } from './vault';

export function registerVaultRoutes(app: FastifyInstance, vault: Vault): void {
  const own = { auth: 'user', access: ACCESS.signedIn, tags: ['vault'] } as const;

  addRoute(app, api.vaultList, own, async ({ input, principal, request }) => vault.list({ ...viewerOf(request, principal), principal }, input));

  addRoute(app, api.vaultAdd, own, async ({ input, principal, request }) => {
    if (!canUpload(principal.perms)) throw forbidden(MSG.uploadPermissionNeeded);
    return { items: await vault.add({ ...viewerOf(request, principal), principal }, input.upload_ids) };
  });
}

/** HTTP handlers of profiles, follow and user search. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/social';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import type { SocialService } from './service';

export function registerSocialRoutes(app: FastifyInstance, deps: { social: SocialService }): void {
  const { social } = deps;
  const tags = ['social'];

  addRoute(app, api.userLookup, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal }) => ({
    user: await social.profile(input.id, principal?.userId ?? null),
  }));

  addRoute(app, api.toggleFollowing, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal }) =>
    social.setFollowing(principal.userId, input.id, input.isFollowing, input.notify ?? true),
  );

  addRoute(app, api.toggleNotification, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal }) =>
    social.setNotify(principal.userId, input.id, input.notify),
  );

  addRoute(app, api.followers, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) =>
    social.followers(principal.userId, input.user_id ?? principal.userId, input.search_text, input),
  );

  addRoute(app, api.following, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) =>
    social.following(principal.userId, input.id, input.fid, input.search_text, input),
  );

  addRoute(app, api.searchUser, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal }) =>
    social.searchUsers(input.search, principal?.userId ?? null, input),
  );
}

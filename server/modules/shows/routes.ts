/** HTTP handlers of private and group shows. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/shows';
import { MSG } from '../../../common/messages';
import { ACCESS } from '../../platform/http/access';
import { notFound } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import type { AccountsService } from '../accounts';
import { viewerOf } from '../streams';
import type { Shows } from './service';

export function registerShowRoutes(app: FastifyInstance, deps: { shows: Shows; accounts: Pick<AccountsService, 'isActive'> }): void {
  const { shows } = deps;
  const tags = ['shows'];

  addRoute(app, api.getShowOffer, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, request }) => {
    if (!(await deps.accounts.isActive(input.user_id))) throw notFound(MSG.userNotFound);
    return { offer: await shows.offerOf(input.user_id, request.skin) };
  });

  addRoute(app, api.saveShowOffer, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    offer: await shows.saveOffer(principal.userId, input),
  }));

  addRoute(app, api.streamShow, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) =>
    shows.showOf(input.id, viewerOf(request, principal)));

  addRoute(app, api.joinShow, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, request }) => ({
    seat: await shows.join(principal, viewerOf(request, principal), input.stream_id, input.as),
  }));

  addRoute(app, api.showHere, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    seat: await shows.here(principal.userId, input.stream_id),
  }));

  addRoute(app, api.leaveShow, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    seat: await shows.leave(principal.userId, input.stream_id),
  }));

  addRoute(app, api.showRequests, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => shows.panel(principal, input.id));

  addRoute(app, api.answerShowRequest, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => ({
    show: await shows.answer(principal, input.stream_id, input.show_id, input.accept),
  }));

  addRoute(app, api.openGroupShow, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => ({
    show: await shows.openGroup(principal, input.stream_id),
  }));

  addRoute(app, api.endShow, { auth: 'user', access: ACCESS.stream(), tags }, async ({ input, principal }) => ({
    ended: await shows.end(principal, input.stream_id),
  }));
}

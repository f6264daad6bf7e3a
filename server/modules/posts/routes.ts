/** HTTP handlers of posts and their comments (spec part 2 §7 posts calls, `POST /api/comment/report`). */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as api from '../../../common/api/posts';
import { MSG } from '../../../common/messages';
import { ACCESS, type Access } from '../../platform/http/access';
import type { Principal } from '../../platform/http/auth';
import { notFound } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import type { ChannelsService } from '../channels';
import { viewerOf } from '../streams';
import type { Comments } from './comments';
import type { PostListing } from './listing';
import type { PostsService } from './service';

/**
 * Its owner deletes a post; holders of the post.delete right (GRANT PERMISSION: the shared moderation
 * rule, `common/rules/moderation.ts`) and admins delete anyone's; the other moderator permissions do not.
 */
const OWNER_OR_MODERATOR: Access = ACCESS.with(ACCESS.ownerOnly, {
  cells: { moderator: 'ok', admin: 'ok' },
  perms: { 'GRANT PERMISSION': 'ok', 'UPDATE STREAM_ANY': 403, 'ALLOW REPORT_STREAM_HIDE': 403 },
});
/** Buying someone else's paid post; the owner has nothing to buy (409). */
const BUYER: Access = ACCESS.with(ACCESS.notOwner, { cells: { owner: 409 } });

export function registerPostRoutes(app: FastifyInstance, deps: { posts: PostsService; comments: Comments; listing: PostListing; channels: ChannelsService }) {
  const { posts, comments, listing } = deps;
  const tags = ['posts'];
  const signedInViewer = (request: FastifyRequest, principal: Principal) => viewerOf(request, principal);

  addRoute(app, api.createPost, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal, request }) => ({
    post_id: await posts.create(signedInViewer(request, principal), input),
  }));

  addRoute(app, api.postLookup, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) => {
    // A subscribers-only post answers its teaser to others (the creator, the blurred tile, the counts).
    return { post: await posts.postPage(input.id, viewerOf(request, principal)) };
  });

  addRoute(app, api.commentList, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) =>
    comments.list(input, viewerOf(request, principal)));

  addRoute(app, api.createComment, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal, request }) => ({
    comment: await comments.create(input, signedInViewer(request, principal)),
  }));

  addRoute(app, api.purchasePost, { auth: 'user', access: BUYER, tags }, async ({ input, principal, request }) =>
    posts.purchase(input.post_id, signedInViewer(request, principal)));

  addRoute(app, api.likePost, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, request }) =>
    posts.like(input.post_id, signedInViewer(request, principal), input.like));

  addRoute(app, api.deletePost, { auth: 'user', access: OWNER_OR_MODERATOR, tags }, async ({ input, principal, request }) => {
    await posts.remove(input.post_id, signedInViewer(request, principal));
    return {};
  });

  addRoute(app, api.editPost, { auth: 'user', access: ACCESS.ownerOnly, tags }, async ({ input, principal, request }) => ({
    post: await posts.edit(signedInViewer(request, principal), input),
  }));

  addRoute(app, api.reportPost, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, request }) => {
    await posts.report(input.post_id, signedInViewer(request, principal), input);
    return {};
  });

  addRoute(app, api.reportComment, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, request }) => {
    await comments.report(input, signedInViewer(request, principal));
    return {};
  });

  addRoute(app, api.savePost, { auth: 'user', access: ACCESS.notOwner, tags }, async ({ input, principal, request }) =>
    posts.save(input.post_id, signedInViewer(request, principal), input.save));

  addRoute(app, api.savedPosts, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal, request }) =>
    listing.saved(signedInViewer(request, principal), input));

  addRoute(app, api.userPosts, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, principal, request }) =>
    listing.ofUser(input.id, viewerOf(request, principal), input));

  addRoute(app, api.listChannelPosts, { auth: 'anonymous', access: ACCESS.public, tags: ['channels'] }, async ({ input, principal, request }) => {
    const channel = await deps.channels.find(input.id);
    if (!channel) throw notFound(MSG.noSuchChannel);
    return listing.channel(channel, viewerOf(request, principal), input);
  });
}

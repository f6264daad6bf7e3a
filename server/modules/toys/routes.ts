/** HTTP handlers of toy-device access: the spec's `lovense-action` and `lovense-token` (part 2 §7), the caller's device, and the Lovense app's callback. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/toys';
import { MSG } from '../../../common/messages';
import { ACCESS } from '../../platform/http/access';
import { forbidden } from '../../platform/http/errors';
import type { RouteDocs } from '../../platform/http/openapi';
import { addRoute } from '../../platform/http/route';
import { viewerOf } from '../streams';
import type { AccessMachine } from './access';
import type { Control } from './control';
import type { Callbacks } from './callbacks';
import type { ToyProviderApi } from './providers';
import type { Rooms } from './rooms';

/**
 * A room's people (spec part 2 §6): `owner` is its broadcaster, `other` a viewer in it (an invitee of the
 * meeting); anyone else does not see the room (404). Per event the service refuses the other side (403).
 */
export const ROOM_BROADCASTER = ACCESS.with(ACCESS.signedIn, { cells: { user: 404, moderator: 404, admin: 404, owner: 'ok', other: 403 } });
/** A live stream's broadcaster alone: everyone else may be watching it, and is refused (403). */
const STREAM_BROADCASTER = ACCESS.with(ACCESS.signedIn, { cells: { user: 403, moderator: 403, admin: 403, owner: 'ok', other: 403 } });

const callbackDocs: RouteDocs = {
  requestBody: {
    required: true,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['uid', 'utoken'],
          properties: {
            uid: { type: 'string', description: 'The user id we gave Lovense (getQrCode)' },
            utoken: { type: 'string', description: 'The one-time token we gave with the QR (`<seconds>.<nonce>.<mac>`: its time, a nonce, an HMAC of both and the uid), which proves the call once' },
            toys: { type: 'object', additionalProperties: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, nickName: { type: 'string' }, status: { type: 'integer' } } } },
          },
        },
        example: { uid: '1000001', utoken: 'not-a-valid-token', toys: { a1b2: { id: 'a1b2', name: 'lush', nickName: '', status: 1 } } },
      },
    },
  },
};

export async function registerToyRoutes(app: FastifyInstance, deps: { access: AccessMachine; control: Control; rooms: Rooms; provider: ToyProviderApi; callbacks: Callbacks; accounts: { publicUsers(ids: number[]): Promise<Map<number, { username: string; fullname: string; avatar: string | null }>> }; watcherIds: (streamId: number) => Promise<number[]> }) {
  const { access, control, rooms, provider } = deps;
  const tags = ['toys'];

  addRoute(app, api.lovenseAction, { auth: 'user', access: ROOM_BROADCASTER, tags }, async ({ input, principal, request, keyed }) =>
    access.act(input, viewerOf(request, principal), keyed));

  // The broadcaster's own token for their own device: a viewer never holds a token that reaches the host's toys.
  addRoute(app, api.lovenseToken, { auth: 'user', access: ROOM_BROADCASTER, tags }, async ({ input, principal, request }) => {
    const { host } = await rooms.partyOf({ room: input.room, streamId: input.stream_id }, viewerOf(request, principal), 'hidden');
    if (!host) throw forbidden(MSG.toyBroadcasterOnly);
    if (input.user_id !== principal.userId) throw forbidden(MSG.toyTokenOwnOnly);
    const user = (await deps.accounts.publicUsers([principal.userId])).get(principal.userId);
    return { data: await provider.authToken({ userId: principal.userId, name: user ? user.fullname || user.username : '' }) };
  });

  addRoute(app, api.lovenseStreamViewers, { auth: 'user', access: STREAM_BROADCASTER, tags }, async ({ input, principal, request }) => {
    const { host } = await rooms.partyOf({ room: 'stream', streamId: input.stream_id }, viewerOf(request, principal), 'hidden');
    if (!host) throw forbidden(MSG.toyBroadcasterOnly);
    const ids = (await deps.watcherIds(input.stream_id)).filter((id) => id !== principal.userId);
    const users = await deps.accounts.publicUsers(ids);
    return {
      viewers: ids.flatMap((id) => {
        const user = users.get(id);
        return user ? [{ user_id: id, name: user.fullname || user.username, avatar: user.avatar }] : [];
      }),
    };
  });

  addRoute(app, api.getLovenseDevice, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => ({ data: await control.deviceOf(principal.userId) }));

  addRoute(app, api.setLovenseDevice, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    // With Lovense the toys are what the app's (verified) callback said; the page reports the connection only.
    data: await control.setDevice(principal.userId, { connected: input.connected, toys: provider.kind === 'simulated' ? input.toys : undefined }),
  }));

  // Lovense's app calls this, not a browser: no session and no CSRF token; the utoken we gave it is the proof.
  app.post(api.LOVENSE_CALLBACK_PATH, {
    schema: { tags, summary: "The Lovense app's callback with the host's toys (TOYS=lovense), proven by the utoken made for the QR, taken once within 10 minutes of it; anything else 403" },
    config: { csrf: false, access: ACCESS.operations, openapi: callbackDocs },
    bodyLimit: 65_536,
  }, async (request) => {
    const verified = await deps.callbacks.accept(request.body);
    await control.setDevice(verified.userId, { connected: true, toys: verified.toys });
    return { response: 'success' };
  });
}

/** HTTP handlers of settings: preferences, the avatar (multipart), the signed e-mail preference link. */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/settings';
import * as accountsApi from '../../../common/api/accounts';
import { authorize } from '../../platform/http/auth';
import { MSG } from '../../../common/messages';
import { ACCESS } from '../../platform/http/access';
import { addRoute } from '../../platform/http/route';
import { clearSessionCookie } from '../../platform/http/sessions';
import { imageUploadDocs, servePictures, uploadedImage } from '../../platform/http/uploaded-image';
import type { FileStore } from '../../platform/storage/storage';
import { AVATAR_MAX_BYTES } from './avatar-image';
import type { ClosureService } from './closure-service';
import type { AccountsService } from './service';
import { AVATAR_PREFIX, type SettingsService } from './settings-service';

export function registerSettingsRoutes(
  app: FastifyInstance,
  deps: { settings: SettingsService; accounts: AccountsService; closure: ClosureService; files: FileStore },
): void {
  const { settings, accounts, closure } = deps;
  const tags = ['settings'];

  addRoute(app, accountsApi.changePassword, { auth: 'user', access: ACCESS.ownerOnly, tags }, async ({ input, principal, request }) => {
    const session = await request.currentSession();
    await closure.changePassword(principal, input.id, { current: input.current_password, next: input.new_password, keepSessionId: session!.id, ip: request.ip });
    return {};
  });

  addRoute(app, accountsApi.deleteAccount, { auth: 'user', access: ACCESS.ownerOnly, tags }, async ({ input, principal, request, reply }) => {
    const session = await request.currentSession();
    await closure.deleteAccount(principal, input.id, { password: input.current_password, sessionId: session!.id, ip: request.ip });
    clearSessionCookie(reply);
    return {};
  });

  addRoute(app, api.getUserPreferences, { auth: 'user', access: ACCESS.self, tags }, async ({ input, principal }) => {
    accounts.assertSelfOrAdmin(principal, input.id);
    const all = await settings.preferencesOf(input.id);
    const section = input.sections ?? 'all';
    return { preferences: section === 'all' ? all : { [section]: all[section] } };
  });

  addRoute(app, api.updateUserPreferences, { auth: 'user', access: ACCESS.self, tags }, async ({ input, principal, request }) => {
    accounts.assertSelfOrAdmin(principal, input.id);
    return { preferences: await settings.updatePreferences(input.id, input.params, request.skin) };
  });

  addRoute(app, api.adultAgreement, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => {
    await settings.agreeAdult(principal.userId, await accounts.ageOf(principal.userId));
    return { adult_agreed: true as const };
  });

  addRoute(app, api.emailNotificationSettings, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input }) =>
    settings.emailNotifications(input.id, input.token),
  );

  addRoute(app, api.updateEmailNotifications, { auth: 'anonymous', access: ACCESS.public, tags }, async ({ input, request }) => {
    await settings.emailNotifications(input.id, input.token);
    const preferences = await settings.updatePreferences(input.id, { notify_via_email: input.notify_via_email }, request.skin);
    return { notify_via_email: preferences.notifications.notify_via_email };
  });

  const uploadAvatarSchema = { tags, summary: api.uploadAvatar.summary, response: { 200: api.uploadAvatar.output } };
  app.post(api.uploadAvatar.path, { schema: uploadAvatarSchema, config: { auth: 'user', access: ACCESS.signedIn, openapi: imageUploadDocs(AVATAR_MAX_BYTES, [413, 507]) } }, async (request) => {
    const principal = await authorize(request, 'user');
    const upload = await uploadedImage(request, MSG.avatarTooBig);
    const avatar = await settings.setAvatar(principal!.userId, upload);
    return { response: 'success', avatar };
  });

  servePictures(app, { path: '/media/avatars', prefix: AVATAR_PREFIX, what: 'avatar', tags, files: deps.files });
}

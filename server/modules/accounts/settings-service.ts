/** Account settings: profile fields, preferences, the avatar, signed e-mail preference links. */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq, getTableColumns } from 'drizzle-orm';
import type { z } from 'zod';
import type { updateUserInfo } from '../../../common/api/accounts';
import { NOTIFICATION_KEYS, type NotificationKey, type Preferences } from '../../../common/api/settings';
import { ADULT_AGE } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import { SKINS, type SkinId } from '../../../common/skins';
import { sqlState, UNIQUE_VIOLATION, type Db } from '../../platform/db/client';
import { badRequest, conflict, forbidden, notFound } from '../../platform/http/errors';
import type { FileStore } from '../../platform/storage/storage';
import { normaliseAvatar } from './avatar-image';
import { verifyPassword } from './passwords';
import { userPreferences, users } from './tables';

type InfoParams = z.output<typeof updateUserInfo.input>['params'];
type PreferenceParams = Partial<Record<NotificationKey | 'stream_show_18plus', boolean>>;

const COLUMN: Record<NotificationKey, keyof typeof userPreferences.$inferInsert> = {
  notify_stream_start: 'notifyStreamStart',
  notify_new_follower: 'notifyNewFollower',
  notify_stream_share: 'notifyStreamShare',
  notify_daily_stats: 'notifyDailyStats',
  notify_chat: 'notifyChat',
  notify_via_email: 'notifyViaEmail',
  notify_via_push: 'notifyViaPush',
  notify_via_text: 'notifyViaText',
};

export const AVATAR_PREFIX = 'avatars/';

/** A user without a preferences row has the table's column defaults. */
const DEFAULT_PREFERENCES = Object.fromEntries(
  Object.entries(getTableColumns(userPreferences)).map(([name, column]) => [name, column.default]),
) as typeof userPreferences.$inferSelect;

export function createSettingsService(deps: {
  db: Db;
  files: FileStore;
  linkSecret: string;
  /** Every instance reads the user's session-user columns afresh after a change to them has committed. */
  forgetUser: (userId: number) => Promise<void>;
}) {
  const { db, files, forgetUser } = deps;

  async function preferencesOf(userId: number): Promise<Preferences> {
    const [row] = await db.select().from(userPreferences).where(eq(userPreferences.userId, userId));
    const values = row ?? DEFAULT_PREFERENCES;
    return {
      filters: { stream_show_18plus: values.streamShow18plus },
      notifications: Object.fromEntries(NOTIFICATION_KEYS.map((k) => [k, values[COLUMN[k]] as boolean])) as Preferences['notifications'],
    };
  }

  const signLink = (userId: number) =>
    createHmac('sha256', deps.linkSecret).update(`email-notifications:${userId}`).digest('base64url');

  return {
    /** Only the given fields change; the full name may be cleared only by someone who never had one. */
    async updateInfo(userId: number, params: InfoParams) {
      const [current] = await db.select().from(users).where(eq(users.id, userId));
      if (!current) throw notFound(MSG.userNotFound);
      if (params.name !== undefined && params.name === '' && current.fullname !== '') {
        throw badRequest(MSG.fullNameRequired, 'name');
      }
      // A stolen session must not be able to move the account to another address (and then recover it).
      if (params.email !== undefined && params.email.toLowerCase() !== current.email && current.passwordHash) {
        if (!params.current_password) throw badRequest(MSG.currentPasswordForEmail, 'current_password');
        if (!(await verifyPassword(current.passwordHash, params.current_password))) throw badRequest(MSG.currentPasswordWrong, 'current_password');
      }
      const changes: Partial<typeof users.$inferInsert> = {};
      if (params.prefix !== undefined) changes.prefix = params.prefix || null;
      if (params.name !== undefined) changes.fullname = params.name;
      if (params.email !== undefined) changes.email = params.email.toLowerCase();
      if (params.description !== undefined) changes.description = params.description;
      if (params.terms_accepted !== undefined) changes.termsAccepted = params.terms_accepted;
      if (params.phone !== undefined) changes.phone = params.phone || null;
      try {
        await db.transaction(async (tx) => {
          await tx.update(users).set(changes).where(eq(users.id, userId));
          // Without a number there is nowhere to send text messages: removing it turns them off.
          if (params.phone === '') await tx.update(userPreferences).set({ notifyViaText: false }).where(eq(userPreferences.userId, userId));
        });
      } catch (error) {
        if (sqlState(error) === UNIQUE_VIOLATION) throw conflict(MSG.emailTaken, 'email');
        throw error;
      }
      await forgetUser(userId);
    },

    preferencesOf,

    async updatePreferences(userId: number, params: PreferenceParams, skin: SkinId) {
      if (params.stream_show_18plus !== undefined && !SKINS[skin].flags.adultContent) {
        throw badRequest(MSG.adultFilterNotOffered, 'params.stream_show_18plus');
      }
      const changes: Partial<typeof userPreferences.$inferInsert> = {};
      if (params.stream_show_18plus !== undefined) changes.streamShow18plus = params.stream_show_18plus;
      if (params.notify_via_text === true) {
        const [row] = await db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
        if (!row?.phone) throw badRequest(MSG.phoneNeededForText, 'params.notify_via_text');
      }
      for (const key of NOTIFICATION_KEYS) {
        const value = params[key];
        if (value !== undefined) Object.assign(changes, { [COLUMN[key]]: value });
      }
      await db
        .insert(userPreferences)
        .values({ userId, ...changes })
        .onConflictDoUpdate({ target: userPreferences.userId, set: changes });
      return preferencesOf(userId);
    },

    /**
     * The person confirms being 18 or older for adult channels (spec part 1 §4): remembered on the
     * account, so the confirmation is not asked again on another browser. Refused to an account whose
     * birthday says otherwise.
     */
    async agreeAdult(userId: number, age: number | null, now = new Date()) {
      if (age !== null && age < ADULT_AGE) throw forbidden(MSG.adultAgreementUnderAge);
      await db.update(users).set({ adultAgreedAt: now }).where(eq(users.id, userId));
      await forgetUser(userId);
    },

    /** Checks the image by content, stores a normalised copy and drops the previous one. */
    async setAvatar(userId: number, upload: Buffer): Promise<string> {
      const image = await normaliseAvatar(upload);
      const key = `${AVATAR_PREFIX}${userId}-${randomBytes(8).toString('hex')}.webp`;
      await files.put(key, image);
      const [previous] = await db.select({ avatar: users.avatar }).from(users).where(eq(users.id, userId));
      const url = `/media/${key}`;
      await db.update(users).set({ avatar: url }).where(eq(users.id, userId));
      await forgetUser(userId);
      if (previous?.avatar?.startsWith(`/media/${AVATAR_PREFIX}`)) {
        await files.remove(previous.avatar.slice('/media/'.length));
      }
      return url;
    },

    /** The token of the e-mail preference link sent to a user (lets a signed-out reader change it). */
    emailLinkToken: signLink,

    async emailNotifications(userId: number, token: string) {
      const expected = Buffer.from(signLink(userId));
      const given = Buffer.from(token);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw notFound(MSG.linkInvalid);
      }
      const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, userId));
      if (!user) throw notFound(MSG.linkInvalid);
      return { username: user.username, notify_via_email: (await preferencesOf(userId)).notifications.notify_via_email };
    },

  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;

/**
 * The account's own security actions (settings): changing the password and deleting the account, and
 * the job that purges the archives of deleted accounts once the privacy text's three months passed.
 *
 * A deleted account's users row stays as an anonymous shell named `deleted-<id>` (a name sign-up can
 * never take: no dash is allowed), because the ledger's wallets and transfers refer to it and are never
 * deleted; the remaining balance stays in the books. Its personal data moves to account_archives.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, ne, sql } from 'drizzle-orm';
import { DELETED_ACCOUNT_ARCHIVE_MONTHS, LOGIN_THROTTLE, REAUTH_WINDOW_MS } from '../../../common/constants';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { sessions as sessionsTable } from '../../platform/db/platform-tables';
import type { EventOutbox } from '../../platform/event-outbox';
import type { Principal } from '../../platform/http/auth';
import { badRequest, forbidden, notFound, tooManyRequests } from '../../platform/http/errors';
import type { FileStore } from '../../platform/storage/storage';
import { createThrottle } from '../../platform/throttle';
import { loginAccountKey } from './service';
import { hashPassword, verifyPassword } from './passwords';
import { accountArchives, recoveryCodes, socialIdentities, userInterests, userPermissions, userPreferences, users } from './tables';
import './events';

const AVATAR_MEDIA_PREFIX = '/media/avatars/';

/** What a deleted account's users row keeps: nothing that names the person. */
const shellOf = (userId: number) => ({
  username: `deleted-${userId}`,
  email: `deleted-${userId}`,
  passwordHash: null,
  prefix: null,
  fullname: '',
  description: '',
  birthday: null,
  country: '',
  avatar: null,
  termsAccepted: false,
  accountStatus: 'deleted' as const,
  broadcastKey: `deleted_${randomBytes(18).toString('base64url')}`,
});

export function archivePurgeDate(deletedAt: Date): Date {
  const at = new Date(deletedAt);
  at.setUTCMonth(at.getUTCMonth() + DELETED_ACCOUNT_ARCHIVE_MONTHS);
  return at;
}

export interface ClosureDeps {
  db: Db;
  /** `account.deleted` is written with the deletion: every module's clean-up follows it at least once. */
  outbox: EventOutbox;
  files: FileStore;
  /** Tells every instance to read the user's sessions afresh, after they ended. */
  forgetUser: (userId: number) => Promise<void>;
  now?: () => Date;
}

export function createClosureService(deps: ClosureDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const loginThrottle = createThrottle(db, LOGIN_THROTTLE);

  function assertSelf(principal: Principal, userId: number) {
    if (principal.userId !== userId) throw forbidden(MSG.ownAccountOnly);
  }

  async function activeUser(userId: number) {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    if (!row || row.accountStatus === 'deleted') throw notFound(MSG.userNotFound);
    return row;
  }

  /**
   * The current password, counted like a sign-in: a wrong one is a failed login for the account and the
   * address (LOGIN_THROTTLE), and once either is over its limit no password is even checked here.
   */
  async function checkCurrentPassword(row: typeof users.$inferSelect, password: string, ip: string) {
    const attempt = await loginThrottle.attempt([loginAccountKey(row.username), { key: `login:ip:${ip}`, limit: LOGIN_THROTTLE.perAddress }]);
    if (attempt.limited) throw tooManyRequests(MSG.passwordTriesExceeded);
    if (!(await verifyPassword(row.passwordHash, password))) throw badRequest(MSG.currentPasswordWrong, 'current_password');
    await loginThrottle.forget(attempt.ids);
  }

  return {
    /** A new password; every session but this one ends. */
    async changePassword(principal: Principal, userId: number, change: { current: string; next: string; keepSessionId: string; ip: string }) {
      assertSelf(principal, userId);
      const row = await activeUser(userId);
      if (!row.passwordHash) throw badRequest(MSG.currentPasswordWrong, 'current_password');
      await checkCurrentPassword(row, change.current, change.ip);
      if (change.current === change.next) throw badRequest(MSG.newPasswordSame, 'new_password');
      const passwordHash = await hashPassword(change.next);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
        await tx.delete(sessionsTable).where(and(eq(sessionsTable.userId, userId), ne(sessionsTable.id, change.keepSessionId)));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      });
      await deps.forgetUser(userId);
    },

    /**
     * Deletes the account: with its password, or (an account without one) from a session opened in the
     * last REAUTH_WINDOW_MS. Archives the personal data, frees the username and email, ends every
     * session; then `account.deleted` lets the other modules remove what they keep for the person.
     */
    async deleteAccount(principal: Principal, userId: number, proof: { password?: string | undefined; sessionId: string; ip: string }) {
      assertSelf(principal, userId);
      const row = await activeUser(userId);
      if (row.passwordHash) {
        if (!proof.password) throw badRequest(MSG.currentPasswordRequired, 'current_password');
        await checkCurrentPassword(row, proof.password, proof.ip);
      } else {
        const since = new Date(now().getTime() - REAUTH_WINDOW_MS);
        const [fresh] = await db.select({ id: sessionsTable.id }).from(sessionsTable)
          .where(and(eq(sessionsTable.id, proof.sessionId), gt(sessionsTable.createdAt, since)));
        if (!fresh) throw forbidden(MSG.signInAgainToDelete);
      }
      const deletedAt = now();
      await db.transaction(async (tx) => {
        // The row is taken again under a lock: two deletions at once archive it once.
        const [current] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
        if (!current || current.accountStatus === 'deleted') throw notFound(MSG.userNotFound);
        await tx.insert(accountArchives).values({
          userId,
          username: current.username,
          email: current.email,
          prefix: current.prefix,
          fullname: current.fullname,
          description: current.description,
          birthday: current.birthday,
          country: current.country,
          service: current.service,
          accountCreatedAt: current.createdAt,
          deletedAt,
          purgeAfter: archivePurgeDate(deletedAt),
        });
        await tx.update(users).set(shellOf(userId)).where(eq(users.id, userId));
        await tx.delete(sessionsTable).where(eq(sessionsTable.userId, userId));
        for (const table of [socialIdentities, recoveryCodes, userPreferences, userInterests, userPermissions]) {
          await tx.delete(table).where(eq(table.userId, userId));
        }
        await deps.outbox.write(tx, 'account.deleted', { userId });
      });
      await deps.forgetUser(userId);
      if (row.avatar?.startsWith(AVATAR_MEDIA_PREFIX)) {
        await deps.files.remove(row.avatar.slice('/media/'.length)).catch(() => undefined);
      }
      await deps.outbox.afterCommit('account.deleted', { userId });
    },

    /**
     * Deletes archives whose three months are over. One statement per batch, so several instances may
     * run it side by side and a killed run leaves nothing half done: the next run carries on.
     */
    async purgeArchives(batch = 500): Promise<number> {
      let purged = 0;
      for (;;) {
        const result = await db.execute(sql`
          delete from ${accountArchives} where user_id in (
            select user_id from ${accountArchives} where purge_after <= ${now()} order by purge_after limit ${batch}
            for update skip locked)
          returning user_id`);
        const count = result.rows.length;
        purged += count;
        if (count < batch) return purged;
      }
    },

    /** For tests and support: the archive of a deleted account, if still kept. */
    async archiveOf(userId: number) {
      const [row] = await db.select().from(accountArchives).where(eq(accountArchives.userId, userId));
      return row ?? null;
    },
  };
}

export type ClosureService = ReturnType<typeof createClosureService>;

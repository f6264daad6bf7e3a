/**
 * Account administration: permissions, roles, suspension, and finding people. One set of rules for
 * `npm run admin` (the actor is null: the command line) and the operator console (the actor is the
 * administrator). Each change is recorded in the audit log in its own transaction.
 */
import { and, asc, eq, ilike, or, sql } from 'drizzle-orm';
import { LIMITS } from '../../../common/constants';
import { isPermission, ROLES, type Permission, type Role } from '../../../common/permissions';
import { fill, MSG } from '../../../common/messages';
import { recordAudit } from '../../platform/audit/audit';
import type { Db, Executor } from '../../platform/db/client';
import { sessions } from '../../platform/db/platform-tables';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import { hashPassword } from './passwords';
import { userPermissions, users } from './tables';
import { escapeLike } from '../../platform/db/like';

/** Who acts: a user id, or null for the command line. */
export type Actor = number | null;

/** How long a suspension lasts (until: null, until lifted) and the reason the person is told at sign-in. */
export interface SuspensionTerms {
  reason: string | null;
  until: Date | null;
}
/** A user named by username (the command line) or by id (the console). */
export type UserRef = { username: string } | { userId: number };

export interface AccountAdminDeps {
  db: Db;
  /** Test factories set up users without recording it. */
  audit?: boolean;
  /** Tells every instance to read the user's sessions and principal afresh, after a change commits. */
  forgetUser?: (userId: number) => Promise<void>;
}

export function createAccountAdmin(deps: AccountAdminDeps) {
  const { db } = deps;
  const audited = deps.audit !== false;

  /** Runs a change to one user in a transaction that answers the user's id; then every instance forgets them. */
  async function changeUser(change: (tx: Executor) => Promise<number>) {
    const userId = await db.transaction(change);
    await deps.forgetUser?.(userId);
  }

  async function find(exec: Executor, ref: UserRef) {
    const [row] = await exec.select({ id: users.id, role: users.role, status: users.accountStatus }).from(users)
      .where('userId' in ref ? eq(users.id, ref.userId) : eq(sql`lower(${users.username})`, ref.username.toLowerCase()));
    if (!row) throw notFound('userId' in ref ? MSG.userNotFound : fill(MSG.noUserNamed, { username: ref.username }));
    return row;
  }

  async function permsOf(exec: Executor, userId: number): Promise<string[]> {
    const rows = await exec.select({ perm: userPermissions.perm }).from(userPermissions).where(eq(userPermissions.userId, userId)).orderBy(asc(userPermissions.perm));
    return rows.map((r) => r.perm);
  }

  async function changePermission(actor: Actor, ref: UserRef, perm: Permission, give: boolean) {
    if (!isPermission(perm)) throw badRequest(MSG.mustBePermission, 'perm');
    await changeUser(async (tx) => {
      const user = await find(tx, ref);
      const before = await permsOf(tx, user.id);
      if (give) await tx.insert(userPermissions).values({ userId: user.id, perm }).onConflictDoNothing();
      else await tx.delete(userPermissions).where(and(eq(userPermissions.userId, user.id), eq(userPermissions.perm, perm)));
      if (audited) {
        await recordAudit(tx, { actorId: actor, action: give ? 'user.grant' : 'user.revoke', targetType: 'user', targetId: user.id, before: { perms: before }, after: { perms: await permsOf(tx, user.id) } });
      }
      return user.id;
    });
  }

  return {
    grant: (actor: Actor, ref: UserRef, perm: Permission) => changePermission(actor, ref, perm, true),
    revoke: (actor: Actor, ref: UserRef, perm: Permission) => changePermission(actor, ref, perm, false),

    /** An administrator may not change their own role (the console could lock its last administrator out). */
    async setRole(actor: Actor, ref: UserRef, role: Role) {
      if (!(ROLES as readonly string[]).includes(role)) throw badRequest(fill(MSG.mustBeOneOf, { values: ROLES.join(', ') }), 'role');
      await changeUser(async (tx) => {
        const user = await find(tx, ref);
        if (actor !== null && actor === user.id) throw forbidden(MSG.ownRoleUnchangeable);
        await tx.update(users).set({ role }).where(eq(users.id, user.id));
        if (audited) await recordAudit(tx, { actorId: actor, action: 'user.role', targetType: 'user', targetId: user.id, before: { role: user.role }, after: { role } });
        return user.id;
      });
    },

    /**
     * Suspend User: the account can no longer sign in and its sessions end. Administrators are not
     * suspended. `alongside` changes what else the suspension changes (the user's streams), in its transaction.
     */
    async suspend(actor: Actor, ref: UserRef, alongside?: (tx: Executor, userId: number) => Promise<void>, terms: SuspensionTerms = { reason: null, until: null }) {
      await changeUser(async (tx) => {
        const user = await find(tx, ref);
        if (user.role === 'admin') throw forbidden(MSG.adminsNotSuspendable);
        const changed = await tx.update(users).set({ accountStatus: 'suspended', suspendedUntil: terms.until, suspensionReason: terms.reason })
          .where(and(eq(users.id, user.id), eq(users.accountStatus, 'active'))).returning({ id: users.id });
        await tx.delete(sessions).where(eq(sessions.userId, user.id));
        const after = changed.length > 0 ? { status: 'suspended', reason: terms.reason, until: terms.until?.toISOString() ?? null } : { status: user.status };
        if (audited) await recordAudit(tx, { actorId: actor, action: 'user.suspend', targetType: 'user', targetId: user.id, before: { status: user.status }, after });
        await alongside?.(tx, user.id);
        return user.id;
      });
    },

    /**
     * A new password (the command line's reset-password): hashed, every session of the account ended,
     * audited without the password itself.
     */
    async resetPassword(actor: Actor, ref: UserRef, password: string) {
      if (password.length < LIMITS.password.min) throw badRequest(MSG.passwordTooShort, 'password');
      if (password.length > LIMITS.password.max) throw badRequest(fill(MSG.atMostChars, { max: LIMITS.password.max }), 'password');
      const hash = await hashPassword(password);
      await changeUser(async (tx) => {
        const user = await find(tx, ref);
        await tx.update(users).set({ passwordHash: hash }).where(eq(users.id, user.id));
        await tx.delete(sessions).where(eq(sessions.userId, user.id));
        if (audited) await recordAudit(tx, { actorId: actor, action: 'user.password_reset', targetType: 'user', targetId: user.id, after: { sessions_ended: true } });
        return user.id;
      });
    },

    /** Lifts a suspension: the account may sign in again. */
    async lift(actor: Actor, ref: UserRef) {
      await changeUser(async (tx) => {
        const user = await find(tx, ref);
        await tx.update(users).set({ accountStatus: 'active', suspendedUntil: null, suspensionReason: null }).where(and(eq(users.id, user.id), eq(users.accountStatus, 'suspended')));
        if (audited) await recordAudit(tx, { actorId: actor, action: 'user.lift', targetType: 'user', targetId: user.id, before: { status: user.status }, after: { status: user.status === 'suspended' ? 'active' : user.status } });
        return user.id;
      });
    },

    /** Users whose username or e-mail contains the text (all when empty), by username, a page at a time. */
    async search(input: { query?: string | undefined; offset: number; limit: number }) {
      const text = input.query?.trim();
      const where = text ? or(ilike(users.username, `%${escapeLike(text)}%`), ilike(users.email, `%${escapeLike(text)}%`)) : undefined;
      const [rows, [count]] = await Promise.all([
        db.select({ id: users.id, username: users.username, email: users.email, role: users.role, status: users.accountStatus, createdAt: users.createdAt })
          .from(users).where(where).orderBy(asc(sql`lower(${users.username})`)).offset(input.offset).limit(input.limit),
        db.select({ total: sql<number>`count(*)::int` }).from(users).where(where),
      ]);
      return { users: rows, total: count?.total ?? 0 };
    },

    /** One user as the console shows them: role, status, permissions, when they joined. */
    async view(userId: number) {
      const [row] = await db.select({ id: users.id, username: users.username, email: users.email, role: users.role, status: users.accountStatus, createdAt: users.createdAt })
        .from(users).where(eq(users.id, userId));
      if (!row) throw notFound(MSG.userNotFound);
      return { ...row, perms: await permsOf(db, userId) };
    },
  };
}

export type AccountAdmin = ReturnType<typeof createAccountAdmin>;


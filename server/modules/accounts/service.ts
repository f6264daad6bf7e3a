/** Accounts: registration, credentials, permissions, interests, terms. The only writer of its tables. */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { registerInput } from '../../../common/api/accounts';
import { LOGIN_THROTTLE } from '../../../common/constants';
import { fill, MSG } from '../../../common/messages';
import { DEFAULT_PERMISSIONS, isPermission, type Permission, type Role } from '../../../common/permissions';
import { ageOn, birthdayToIso, calendarDateOf } from '../../../common/rules/birthday';
import { DEFAULT_SKIN, SKINS, type SkinId } from '../../../common/skins';
import { recordAudit } from '../../platform/audit/audit';
import { sqlState, UNIQUE_VIOLATION, type Db, type Executor } from '../../platform/db/client';
import { sessions as sessionsTable } from '../../platform/db/platform-tables';
import { withPlansForValues } from '../../platform/db/plans-for-values';
import { preparedStatement } from '../../platform/db/prepared';
import type { Principal } from '../../platform/http/auth';
import { appError, badRequest, conflict, forbidden, tooManyRequests, unauthorized } from '../../platform/http/errors';
import type { SessionStore } from '../../platform/http/sessions';
import { createThrottle } from '../../platform/throttle';
import { hashPassword, verifyPassword } from './passwords';
import { toSessionUser, type EnvSettings, type SessionUserRow } from './session-user';
import { interests, userInterests, userPermissions, users } from './tables';

export type RegisterInput = z.output<typeof registerInput>;

export interface NewAccount {
  username: string;
  email: string;
  /** None for an account created through social sign-in: it signs in with its provider until a reset. */
  password?: string;
  /** Already hashed (sign-up hashes before its transaction); wins over `password`. */
  passwordHash?: string;
  fullname?: string;
  prefix?: string;
  birthdayIso: string | null;
  country: string;
  termsAccepted: boolean;
  skin: SkinId;
  role?: Role;
  extraPermissions?: Permission[];
}

/** What a suspended person is told at sign-in: until when (UTC, when known), why, and whom to write to (403, `suspended_until`). */
export function suspendedRefusal(row: { suspendedUntil: Date | null; suspensionReason: string | null }, contact: string) {
  const until = row.suspendedUntil ? row.suspendedUntil.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : null;
  const message = until
    ? fill(MSG.accountSuspendedUntil, { until, reason: row.suspensionReason ?? MSG.suspensionReasonNotGiven, email: contact })
    : fill(MSG.accountSuspended, { reason: row.suspensionReason ?? MSG.suspensionReasonNotGiven, email: contact });
  return appError('forbidden', message, { suspended_until: row.suspendedUntil?.toISOString() ?? null });
}

export interface ClientMeta {
  ip: string;
  userAgent?: string;
}

export interface NewSession {
  token: string;
  expiresAt: Date;
  remember: boolean;
}

/** What every stream key looks like: anything else is not worth a database lookup. */
export const BROADCAST_KEY_PATTERN = /^live_[A-Za-z0-9_-]{24}$/;
const newBroadcastKey = () => `live_${randomBytes(18).toString('base64url')}`;

/** Failed sign-ins are counted per typed login (username or email) and per address. */
export const loginAccountKey = (login: string) => ({ key: `login:user:${login.toLowerCase()}`, limit: LOGIN_THROTTLE.perAccount });

/** A new password forgives earlier failed sign-ins under either name of the account. */
export async function forgiveLoginFailures(db: Db, account: { username: string; email: string }): Promise<void> {
  await createThrottle(db, LOGIN_THROTTLE).clear([loginAccountKey(account.username), loginAccountKey(account.email)]);
}

/** A unique index violation of a new account as the 409 the sign-up forms show; anything else rethrown. */
export function uniqueViolationToConflict(error: unknown): never {
  if (sqlState(error) === UNIQUE_VIOLATION) {
    const text = String((error as { cause?: { constraint?: string } }).cause?.constraint ?? error);
    if (text.includes('email')) throw conflict(MSG.emailTaken, 'email');
    throw conflict(MSG.usernameTaken, 'username');
  }
  throw error;
}

/** A referral holder's first referral link (its id). */
export type ReferralCodes = (userId: number) => Promise<number>;

export function createAccountsService(deps: {
  db: Db;
  sessions: SessionStore;
  env: Omit<EnvSettings, 'nextWithdrawDate'>;
  signupsPerAddress: number;
  /** A referral holder's first referral link, made on first use: the hook the referral programme (a later module) fills. */
  referralCodes: () => ReferralCodes;
  nextWithdrawDate: () => (userId: number) => Promise<Date | null>;
}) {
  const { db, sessions } = deps;
  const loginThrottle = createThrottle(db, LOGIN_THROTTLE);
  const signupThrottle = createThrottle(db, LOGIN_THROTTLE);

  /** The user's columns the session user shows (session-user.ts), selected alike wherever it is built. */
  const sessionUserColumns = {
    id: users.id, username: users.username, email: users.email, fullname: users.fullname, avatar: users.avatar,
    prefix: users.prefix, birthday: users.birthday, country: users.country, description: users.description,
    role: users.role, termsAccepted: users.termsAccepted, phone: users.phone, adultAgreedAt: users.adultAgreedAt,
    broadcastKey: users.broadcastKey, accountStatus: users.accountStatus, service: users.service,
    hasPassword: sql<boolean>`${users.passwordHash} is not null`,
  };

  /** A user's session-user columns and permissions: one prepared query. */
  const userWithPermissionsQuery = preparedStatement(
    db.select({
      user: sessionUserColumns,
      perms: sql<string[]>`coalesce(array_agg(${userPermissions.perm} order by ${userPermissions.perm}) filter (where ${userPermissions.perm} is not null), '{}')`,
    }).from(users).leftJoin(userPermissions, eq(userPermissions.userId, users.id)).where(eq(users.id, sql.placeholder('id'))).groupBy(users.id),
    'accounts_user_with_permissions',
  );

  async function userWithPermissions(userId: number): Promise<{ user: SessionUserRow; perms: Permission[] } | null> {
    const [row] = await userWithPermissionsQuery({ id: userId });
    return row ? { user: row.user, perms: row.perms.filter(isPermission) } : null;
  }

  /**
   * A session row with its user's principal and session-user columns, by the session's hashed id: one
   * prepared query per request, none while the session cache keeps it.
   */
  const sessionWithPrincipal = preparedStatement(
    db.select({
      userId: sessionsTable.userId,
      remember: sessionsTable.remember,
      expiresAt: sessionsTable.expiresAt,
      lastSeenAt: sessionsTable.lastSeenAt,
      user: sessionUserColumns,
      perms: sql<string[]>`coalesce((select array_agg(p.perm order by p.perm) from ${userPermissions} p where p.user_id = ${users.id}), '{}')`,
    }).from(sessionsTable).innerJoin(users, eq(users.id, sessionsTable.userId)).where(eq(sessionsTable.id, sql.placeholder('id'))),
    'accounts_session_principal',
  );

  /** Public names and avatars of any number of users: one prepared statement (post pages, chat, listings ask it). */
  const publicUsersQuery = preparedStatement(
    db.select({ id: users.id, username: users.username, fullname: users.fullname, avatar: users.avatar })
      .from(users).where(sql`${users.id} = any(${sql.placeholder('ids')}::bigint[])`),
    'accounts_public_users',
  );

  /**
   * The session-user columns read with each resolved principal: the session cache keeps the principal, so
   * `session-detail` (every signed-in page) reads no user row; a change to them forgets the user's sessions.
   */
  const rowsOfPrincipals = new WeakMap<Principal, SessionUserRow>();

  async function findByLogin(login: string) {
    const lowered = login.toLowerCase();
    const [row] = await db
      .select()
      .from(users)
      .where(or(eq(sql`lower(${users.username})`, lowered), eq(sql`lower(${users.email})`, lowered)))
      .limit(1);
    return row ?? null;
  }

  /**
   * The session user as seen from a skin, with links on the origin the person uses; `principal` when it is
   * the caller's own, whose columns came with their session.
   */
  async function sessionUser(userId: number, view: { skin: SkinId; origin: string }, principal?: Principal) {
    const resolved = principal?.userId === userId ? rowsOfPrincipals.get(principal) : undefined;
    const found = resolved ? { user: resolved, perms: principal!.perms } : await userWithPermissions(userId);
    if (!found) throw unauthorized();
    // Every signed-in page asks this: the next withdraw date and the referral link are read at once.
    const [nextWithdraw, referralCodeId] = await Promise.all([
      deps.nextWithdrawDate()(userId),
      found.perms.includes('ALLOW REFERRAL_ACCESS') ? deps.referralCodes()(userId) : null,
    ]);
    return toSessionUser(found.user, found.perms, view.skin, { ...deps.env, nextWithdrawDate: nextWithdraw?.toISOString() ?? null }, view.origin, referralCodeId);
  }

  /** A suspension whose end has passed is lifted at the next sign-in (audited); true when it was. */
  async function liftIfOver(userId: number, until: Date | null): Promise<boolean> {
    if (!until || until > new Date()) return false;
    const lifted = await db.transaction(async (tx) => {
      const changed = await tx.update(users).set({ accountStatus: 'active', suspendedUntil: null, suspensionReason: null })
        .where(and(eq(users.id, userId), eq(users.accountStatus, 'suspended'), sql`${users.suspendedUntil} <= now()`)).returning({ id: users.id });
      if (changed.length > 0) {
        await recordAudit(tx, { actorId: null, action: 'user.lift', targetType: 'user', targetId: userId, before: { status: 'suspended', until: until.toISOString() }, after: { status: 'active' } });
      }
      return changed.length > 0;
    });
    if (lifted) await sessions.forgetUser(userId);
    return lifted;
  }

  async function openSession(exec: Executor, userId: number, remember: boolean, meta: ClientMeta): Promise<NewSession> {
    const created = await sessions.create(exec, userId, remember, meta);
    return { ...created, remember };
  }

  return {
    sessionUser,
    /** The session of a cookie token and its principal (installAuth's resolver). */
    async resolveSession(token: string) {
      const found = await sessions.resolveWith(token, async (id) => {
        const [row] = await sessionWithPrincipal({ id });
        if (!row) return null;
        const principal: Principal = {
          userId: row.userId,
          role: row.user.role,
          perms: row.perms.filter(isPermission),
          suspended: row.user.accountStatus === 'suspended',
        };
        rowsOfPrincipals.set(principal, row.user);
        return { row, extra: principal };
      });
      return found && { session: found.session, principal: found.extra };
    },

    async loadPrincipal(userId: number): Promise<Principal | null> {
      const found = await userWithPermissions(userId);
      if (!found) return null;
      return {
        userId: found.user.id,
        role: found.user.role,
        perms: found.perms,
        suspended: found.user.accountStatus === 'suspended',
      };
    },

    /** Creates an account with the default permissions; sign-up and the demo seed both come here. */
    async createAccount(exec: Executor, account: NewAccount) {
      const [row] = await exec
        .insert(users)
        .values({
          username: account.username,
          email: account.email.toLowerCase(),
          passwordHash: account.passwordHash ?? (account.password === undefined ? null : await hashPassword(account.password)),
          fullname: account.fullname ?? '',
          prefix: account.prefix || null,
          birthday: account.birthdayIso,
          country: account.country,
          termsAccepted: account.termsAccepted,
          broadcastKey: newBroadcastKey(),
          service: account.skin,
          role: account.role ?? 'user',
        })
        .returning();
      if (!row) throw new Error('insert returned no row');
      const perms = [...DEFAULT_PERMISSIONS, ...(account.extraPermissions ?? [])];
      await exec.insert(userPermissions).values(perms.map((perm) => ({ userId: row.id, perm }))).onConflictDoNothing();
      return row.id;
    },

    async register(input: RegisterInput, skin: SkinId, meta: ClientMeta) {
      const address = [{ key: `signup:ip:${meta.ip}`, limit: deps.signupsPerAddress }];
      if ((await signupThrottle.attempt(address)).limited) throw tooManyRequests(MSG.tooManySignUps);
      // Hashed before the transaction: argon2 takes a while, and the embedded database runs one transaction at a time.
      const passwordHash = await hashPassword(input.password);
      try {
        return await db.transaction(async (tx) => {
          const userId = await this.createAccount(tx, {
            username: input.username,
            email: input.email,
            passwordHash,
            prefix: input.prefix,
            birthdayIso: birthdayToIso(input.birthday),
            country: input.country,
            termsAccepted: true,
            skin,
          });
          return { userId, session: await openSession(tx, userId, true, meta) };
        });
      } catch (error) {
        return uniqueViolationToConflict(error);
      }
    },

    /**
     * Checks credentials and opens a new session. The attempt is counted per account and per address
     * before anything is checked, so parallel guesses count each other; `proveHuman(strong)` runs next
     * and asks for the strong captcha once either count is over its limit. A refused proof does not
     * count: only passwords tried do.
     */
    async login(login: string, password: string, remember: boolean, meta: ClientMeta, proveHuman: (strong: boolean) => Promise<void>, contact = SKINS[DEFAULT_SKIN].supportEmail) {
      const account = loginAccountKey(login);
      const attempt = await loginThrottle.attempt([account, { key: `login:ip:${meta.ip}`, limit: LOGIN_THROTTLE.perAddress }]);
      try {
        await proveHuman(attempt.limited);
      } catch (error) {
        await loginThrottle.forget(attempt.ids);
        throw error;
      }
      const row = await findByLogin(login);
      const valid = await verifyPassword(row?.passwordHash ?? null, password);
      // Only once the password was right is a suspended person told so (and until when, and why).
      if (row && valid && row.accountStatus === 'suspended' && !(await liftIfOver(row.id, row.suspendedUntil))) {
        await loginThrottle.forget(attempt.ids);
        throw suspendedRefusal(row, contact);
      }
      if (!row || !valid || (row.accountStatus !== 'active' && row.accountStatus !== 'suspended')) throw unauthorized(MSG.invalidCredentials);
      await loginThrottle.forget(attempt.ids);
      await loginThrottle.clear([account]);
      return { userId: row.id, session: await openSession(db, row.id, remember, meta) };
    },

    async listInterests() {
      const rows = await db.select().from(interests).orderBy(asc(interests.name));
      return rows.map((r) => ({ interest_id: r.id, interest_name: r.name }));
    },

    async interestsOf(userId: number) {
      const rows = await db
        .select({ interest_id: interests.id, interest_name: interests.name })
        .from(userInterests)
        .innerJoin(interests, eq(interests.id, userInterests.interestId))
        .where(eq(userInterests.userId, userId))
        .orderBy(asc(interests.name));
      return rows;
    },

    /** Replaces the user's interests with the given set. */
    async setInterests(userId: number, interestIds: number[]) {
      const unique = [...new Set(interestIds)];
      await db.transaction(async (tx) => {
        const known = await tx.select({ id: interests.id }).from(interests).where(inArray(interests.id, unique));
        if (known.length !== unique.length) throw badRequest(MSG.interestUnknown, 'interest_ids');
        if (unique.length < 3) throw badRequest(MSG.interestsMin, 'interest_ids');
        await tx.delete(userInterests).where(eq(userInterests.userId, userId));
        await tx.insert(userInterests).values(unique.map((interestId) => ({ userId, interestId })));
      });
    },

    /** The active account a broadcast key belongs to, with its permissions; null when none. */
    async publisherByKey(broadcastKey: string) {
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.broadcastKey, broadcastKey));
      const found = row ? await userWithPermissions(row.id) : null;
      return found && found.user.accountStatus === 'active' ? found : null;
    },

    /** Whole years of age today (null without a birthday). */
    async ageOf(userId: number): Promise<number | null> {
      const [row] = await db.select({ birthday: users.birthday }).from(users).where(eq(users.id, userId));
      if (!row?.birthday) return null;
      const [year, month, day] = row.birthday.split('-').map(Number);
      return ageOn({ year: year!, month: month!, day: day! }, calendarDateOf(new Date()));
    },

    /** Ids of active users whose name contains the text (stream search by broadcaster). */
    async userIdsNamed(text: string, limit: number): Promise<number[]> {
      const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await withPlansForValues(db, (tx) => tx.select({ id: users.id }).from(users)
        .where(and(eq(users.accountStatus, 'active'), sql`lower(${users.username}) like ${pattern}`)).limit(limit));
      return rows.map((r) => r.id);
    },

    /** Ids of the active accounts with these usernames (case-insensitive), by the name as asked. */
    async activeIdsByUsername(names: string[]): Promise<Map<string, number>> {
      if (names.length === 0) return new Map();
      const lowered = [...new Set(names.map((n) => n.toLowerCase()))];
      const rows = await db.select({ id: users.id, username: users.username }).from(users)
        .where(and(eq(users.accountStatus, 'active'), inArray(sql`lower(${users.username})`, lowered)));
      const byLowered = new Map(rows.map((r) => [r.username.toLowerCase(), r.id]));
      return new Map(names.flatMap((n) => (byLowered.has(n.toLowerCase()) ? [[n, byLowered.get(n.toLowerCase())!] as const] : [])));
    },

    /** The account with this username (case-insensitive), whatever its status: for administrators' look-ups. */
    async idByUsername(name: string): Promise<number | null> {
      const [row] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.username}) = ${name.toLowerCase()}`);
      return row?.id ?? null;
    },

    /** Public facts about users, for listings of other modules. */
    async publicUsers(userIds: number[]) {
      if (userIds.length === 0) return new Map<number, { username: string; fullname: string; avatar: string | null }>();
      const rows = await publicUsersQuery({ ids: [...new Set(userIds)] });
      return new Map(rows.map((r) => [r.id, { username: r.username, fullname: r.fullname, avatar: r.avatar }]));
    },

    /** Where to write to an active user (a notice of another module); null for a deleted or unknown account. */
    async mailContact(userId: number): Promise<{ email: string; username: string } | null> {
      const [row] = await db.select({ email: users.email, username: users.username, status: users.accountStatus }).from(users).where(eq(users.id, userId));
      return row && row.status !== 'deleted' ? { email: row.email, username: row.username } : null;
    },

    /** Whether the user exists and is active (not suspended). */
    /** `exec`: the caller's transaction, when it asks inside one. */
    async isActive(userId: number, exec: Executor = db): Promise<boolean> {
      const [row] = await exec.select({ status: users.accountStatus }).from(users).where(eq(users.id, userId));
      return row?.status === 'active';
    },

    /** When the account was made; null for an unknown user. */
    async createdAt(userId: number): Promise<Date | null> {
      const [row] = await db.select({ at: users.createdAt }).from(users).where(eq(users.id, userId));
      return row ? new Date(row.at) : null;
    },

    /** publicUsers' facts of one user as one JSON value in SQL (null for an unknown user), for one-statement paths. */
    publicUserJsonSql: (userId: number | SQL) =>
      sql`select json_build_object('username', username, 'fullname', fullname, 'avatar', avatar) from ${users} where id = ${userId}`,

    /** A new stream key: the old one no longer publishes. */
    async regenerateBroadcastKey(userId: number): Promise<string> {
      const broadcastKey = newBroadcastKey();
      await db.update(users).set({ broadcastKey }).where(eq(users.id, userId));
      await sessions.forgetUser(userId);
      return broadcastKey;
    },

    /** A moderator's Suspend User: the account can no longer sign in, and its sessions end. */
    async suspend(userId: number) {
      await db.transaction(async (tx) => {
        await tx.update(users).set({ accountStatus: 'suspended' }).where(eq(users.id, userId));
        await sessions.destroyAllForUser(tx, userId);
      });
      await sessions.forgetUser(userId);
    },

    /** Owners act on their own account; admins on any. */
    assertSelfOrAdmin(principal: Principal, userId: number) {
      if (principal.userId !== userId && principal.role !== 'admin') throw forbidden(MSG.ownAccountOnly);
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;

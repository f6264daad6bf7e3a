/**
 * Who may call a route, declared next to it (the refusal matrix, `refusal-matrix.int.test.ts`, calls
 * every route and realtime operation as each caller and checks the answer against this). The
 * declaration says what the specification requires (part 1 §6 Roles and permissions), not what the
 * code happens to answer: a route without one fails the suite.
 *
 * The callers, in the spec's words:
 * - `anonymous`: a visitor without a session;
 * - `user`: a signed-in user with a new account's permissions, no relation to the object the call names;
 * - `owner`: the owner of that object (the stream's broadcaster, the user the id names); for a call
 *   about the caller's own account, the caller;
 * - `other`: another signed-in user who does have a relation to the owner (follows them, tipped them);
 * - `moderator`: a user holding the moderator permissions (GRANT PERMISSION, UPDATE STREAM_ANY,
 *   ALLOW REPORT_STREAM_HIDE);
 * - `admin`: role admin (holds every permission: `authorize` in auth.ts);
 * - and, per route, a holder of each relevant permission (`perms`): a new account plus that one.
 */
import type { Permission } from '../../../common/permissions';

export const CALLERS = ['anonymous', 'user', 'owner', 'other', 'moderator', 'admin'] as const;
export type Caller = (typeof CALLERS)[number];

/** The permissions the moderator role holds. */
export const MODERATOR_PERMISSIONS: readonly Permission[] = ['GRANT PERMISSION', 'UPDATE STREAM_ANY', 'ALLOW REPORT_STREAM_HIDE'];

/** `ok`: answered, not refused (2xx, or the redirect a browser route answers); otherwise the refusal's status. */
export type Outcome = 'ok' | 401 | 402 | 403 | 404 | 409;

export interface Access {
  cells: Record<Caller, Outcome>;
  /** Holders of each permission that changes the answer. */
  perms?: Partial<Record<Permission, Outcome>>;
  /**
   * Cells where the code does not answer what the spec requires yet: the declared cell stays the
   * spec's; the matrix expects `actual` and says why. Each one is a known gap to close.
   */
  gaps?: Partial<Record<Caller | Permission, { actual: Outcome; why: string }>>;
}

const cells = (anonymous: Outcome, rest: Outcome, owner = rest): Record<Caller, Outcome> => ({
  anonymous, user: rest, owner, other: rest, moderator: rest, admin: rest,
});

/** `ok` for the given permissions; each other moderator permission, held alone, is refused. */
const moderatorPerms = (by: readonly Permission[], refused: Outcome): Partial<Record<Permission, Outcome>> =>
  Object.fromEntries([...new Set([...MODERATOR_PERMISSIONS, ...by])].map((p) => [p, by.includes(p) ? 'ok' : refused]));

export const ACCESS = {
  /** Anyone, signed in or not (listings, lookups, sign-in and recovery, media, operations). */
  public: { cells: cells('ok', 'ok') } satisfies Access,
  /** Any signed-in user; a visitor is asked to log in (401). */
  signedIn: { cells: cells(401, 'ok') } satisfies Access,
  /** Any signed-in user but the owner, who may not do it to their own (tip, like, rate, save, report, follow: spec §6). */
  notOwner: { cells: cells(401, 'ok', 403) } satisfies Access,
  /**
   * Watching a stream with a price (spec §6, the pay wall): whoever still owes tips is asked to pay
   * (402), signed in or not; the owner, admins and the three privileged permissions watch without.
   */
  payWall: {
    cells: { anonymous: 402, user: 402, owner: 'ok', other: 402, moderator: 'ok', admin: 'ok' },
    perms: { 'GRANT PERMISSION': 'ok', 'UPDATE STREAM_ANY': 'ok', 'ALLOW REPORT_STREAM_HIDE': 'ok' },
  } satisfies Access,
  /** A browser not signed in: a signed-in one is refused (409) rather than switched to another account (social tickets). */
  signedOut: { cells: { ...cells('ok', 409) } } satisfies Access,
  /** The owner alone (their own user channel); other users 403. */
  ownerOnly: { cells: cells(401, 403, 'ok') } satisfies Access,
  /** The caller's own account, or an admin acting on it; other users 403. */
  self: { cells: { ...cells(401, 403, 'ok'), admin: 'ok' } } satisfies Access,
  /**
   * A stream its owner edits, and holders of `by` (and admins) on anyone's; for any other user the
   * stream is not there (404: whether it exists is not told).
   */
  stream(...by: Permission[]): Access {
    const moderates = by.some((p) => MODERATOR_PERMISSIONS.includes(p));
    return {
      cells: { ...cells(401, 404, 'ok'), moderator: moderates ? 'ok' : 404, admin: by.length > 0 ? 'ok' : 404 },
      perms: moderatorPerms(by, 404),
    };
  },
  /** Holders of `perm` and admins; other signed-in users 403. */
  permission(perm: Permission, refused: Outcome = 403): Access {
    return {
      cells: { ...cells(401, refused), moderator: MODERATOR_PERMISSIONS.includes(perm) ? 'ok' : refused, admin: 'ok' },
      perms: moderatorPerms([perm], refused),
    };
  },
  /**
   * Operations, not the site: read from the host itself or with the operator's token; every caller
   * of the site, whatever their role, is refused.
   */
  operations: { cells: cells(403, 403) } satisfies Access,
  /**
   * A part of the operator console: holders of `by` and admins (`hiddenUnless()`: admins only); anyone
   * else, signed in or not, is not told it exists (404).
   */
  hiddenUnless(...by: Permission[]): Access {
    return {
      cells: { ...cells(404, 404), moderator: by.some((p) => MODERATOR_PERMISSIONS.includes(p)) ? 'ok' : 404, admin: 'ok' },
      perms: moderatorPerms(by, 404),
    };
  },
  /** Role admin only. */
  admin: { cells: { ...cells(401, 403), admin: 'ok' } } satisfies Access,
  /** A policy with some cells spelled differently. */
  with(base: Access, changes: { cells?: Partial<Record<Caller, Outcome>>; perms?: Access['perms']; gaps?: Access['gaps'] }): Access {
    return {
      cells: { ...base.cells, ...changes.cells },
      perms: { ...base.perms, ...changes.perms },
      ...(changes.gaps || base.gaps ? { gaps: { ...base.gaps, ...changes.gaps } } : {}),
    };
  },
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (addRoute sets it from its options; a route outside the contract declares it here). */
    access?: Access;
  }
}

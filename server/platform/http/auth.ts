/**
 * Who is calling, and whether they may. Routes declare a rule; this module is the one place that
 * decides it. The accounts module supplies the principal loader (platform imports no module).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission, Role } from '../../../common/permissions';
import { forbidden, unauthorized } from './errors';
import { SESSION_COOKIE, type ResolvedSession } from './sessions';

export interface Principal {
  userId: number;
  role: Role;
  perms: readonly Permission[];
  suspended: boolean;
}

export type AuthRule = 'anonymous' | 'user' | 'admin' | { perm: Permission };

/**
 * A cookie token's session and its principal, read together (one round trip on every request); null
 * when the token names no live session.
 */
export type SessionResolver = (token: string) => Promise<{ session: ResolvedSession; principal: Principal | null } | null>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The session of this request's cookie, resolved once and cached. */
    currentSession(): Promise<ResolvedSession | null>;
    /** The signed-in principal, or null. */
    currentPrincipal(): Promise<Principal | null>;
    /** Resolves the session and principal again: a long-lived WebSocket sees logout, suspension and new permissions. */
    reloadPrincipal(): Promise<Principal | null>;
  }
}

export function installAuth(app: FastifyInstance, resolveSession: SessionResolver): void {
  const resolved = new WeakMap<FastifyRequest, ReturnType<SessionResolver>>();
  const resolve = (request: FastifyRequest) => {
    let pending = resolved.get(request);
    if (!pending) {
      const token = request.cookies[SESSION_COOKIE];
      pending = token && token.length < 200 ? resolveSession(token) : Promise.resolve(null);
      resolved.set(request, pending);
    }
    return pending;
  };

  app.decorateRequest('currentSession', function (this: FastifyRequest) {
    return resolve(this).then((found) => found?.session ?? null);
  });

  app.decorateRequest('currentPrincipal', function (this: FastifyRequest) {
    return resolve(this).then((found) => (found?.principal && !found.principal.suspended ? found.principal : null));
  });

  app.decorateRequest('reloadPrincipal', function (this: FastifyRequest) {
    resolved.delete(this);
    return this.currentPrincipal();
  });
}

export function isAdmin(principal: Principal): boolean {
  return principal.role === 'admin';
}

/** Applies a route's rule: 401 when a sign-in is needed, 403 when the signed-in user may not. */
export async function authorize(request: FastifyRequest, rule: AuthRule): Promise<Principal | null> {
  if (rule === 'anonymous') return request.currentPrincipal();
  const principal = await request.currentPrincipal();
  if (!principal) throw unauthorized();
  if (rule === 'user') return principal;
  if (rule === 'admin') {
    if (!isAdmin(principal)) throw forbidden();
    return principal;
  }
  if (!principal.perms.includes(rule.perm) && !isAdmin(principal)) throw forbidden();
  return principal;
}

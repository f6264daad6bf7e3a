/**
 * Who is calling, and whether they may. Routes declare a rule; this module is the one place that
 * decides it. The accounts module supplies the principal loader (platform imports no module).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission, Role } from '../../../common/permissions';
import { forbidden, unauthorized } from './errors';
import { SESSION_COOKIE, type ResolvedSession, type SessionStore } from './sessions';

export interface Principal {
  userId: number;
  role: Role;
  perms: readonly Permission[];
  suspended: boolean;
}

export type AuthRule = 'anonymous' | 'user' | 'admin' | { perm: Permission };

export type PrincipalLoader = (userId: number) => Promise<Principal | null>;

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

export function installAuth(app: FastifyInstance, store: SessionStore, loadPrincipal: PrincipalLoader): void {
  const sessionCache = new WeakMap<FastifyRequest, Promise<ResolvedSession | null>>();
  const principalCache = new WeakMap<FastifyRequest, Promise<Principal | null>>();

  app.decorateRequest('currentSession', function (this: FastifyRequest) {
    let pending = sessionCache.get(this);
    if (!pending) {
      const token = this.cookies[SESSION_COOKIE];
      pending = token && token.length < 200 ? store.resolve(token) : Promise.resolve(null);
      sessionCache.set(this, pending);
    }
    return pending;
  });

  app.decorateRequest('currentPrincipal', function (this: FastifyRequest) {
    let pending = principalCache.get(this);
    if (!pending) {
      pending = this.currentSession().then(async (session) => {
        if (!session) return null;
        const principal = await loadPrincipal(session.userId);
        return principal && !principal.suspended ? principal : null;
      });
      principalCache.set(this, pending);
    }
    return pending;
  });

  app.decorateRequest('reloadPrincipal', function (this: FastifyRequest) {
    sessionCache.delete(this);
    principalCache.delete(this);
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

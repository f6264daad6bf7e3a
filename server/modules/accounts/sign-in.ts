/** What every sign-in route shares: the client's metadata, the captcha check and starting the session. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MSG } from '../../../common/messages';
import type { Captcha } from '../../platform/captcha';
import type { Db } from '../../platform/db/client';
import { appError, badRequest } from '../../platform/http/errors';
import { SESSION_COOKIE, setSessionCookie, type SessionStore } from '../../platform/http/sessions';
import type { ClientMeta, NewSession } from './service';

export const clientMeta = (request: FastifyRequest): ClientMeta => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export async function requireCaptcha(captcha: Captcha, payload: string | undefined): Promise<void> {
  if (!(await captcha.verify(payload))) throw badRequest(MSG.captchaFailed, 'altcha');
}

/** The login's proof: the strong captcha once failures piled up (captcha on or off), else the standard one. */
export async function requireLoginProof(captcha: Captcha, payload: string | undefined, strong: boolean): Promise<void> {
  if (!strong) return requireCaptcha(captcha, payload);
  if (!(await captcha.verifyStrong(payload))) throw appError('proof_required', undefined, { field: 'altcha' });
}

export type StartSession = (request: FastifyRequest, reply: FastifyReply, session: NewSession) => Promise<void>;

/** Sign-in rotates the session: whatever session the cookie held ends, a new one starts. */
export function sessionStarter(db: Db, sessions: SessionStore): StartSession {
  return async (request, reply, session) => {
    const previous = request.cookies[SESSION_COOKIE];
    if (previous) await sessions.destroy(previous);
    setSessionCookie(request, reply, session.token, session.remember, session.expiresAt);
  };
}

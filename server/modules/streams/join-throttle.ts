/**
 * stream-join per client address (the one TRUST_PROXY allows, never a header the client writes): a
 * token bucket shared by every instance. A player joins once, and again only when its playback address
 * expires or access changed, so a person stays far below the limit; a script joining in a loop is
 * answered 429 with the seconds to wait.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { tooManyRequests } from '../../platform/http/errors';
import { takeTokenOrWait } from '../../platform/throttle';

export function createJoinThrottle(db: Db, joinsPerMinute: number) {
  const rate = { capacity: joinsPerMinute, windowMs: 60_000 };
  return {
    /** Takes one join from the caller's address, or refuses with Retry-After. */
    async take(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const { allowed, retryAfterSeconds } = await takeTokenOrWait(db, `stream-join:address:${request.ip}`, rate);
      if (allowed) return;
      reply.header('retry-after', String(retryAfterSeconds));
      throw tooManyRequests(MSG.tooManyRequests);
    },
  };
}

export type JoinThrottle = ReturnType<typeof createJoinThrottle>;

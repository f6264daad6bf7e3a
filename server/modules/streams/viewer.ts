/** Who asks, as the streams rules see it: the principal (or a guest), the skin, a stable guest key. */
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../../platform/http/auth';
import { guestKeyOf, type Viewer } from './service';

export const viewerOf = <P extends Principal | null>(request: FastifyRequest, principal: P): Viewer & { principal: P } => ({
  principal,
  skin: request.skin,
  guestKey: guestKeyOf(request.ip, request.headers['user-agent']),
});

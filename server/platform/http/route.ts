/**
 * Registers one call of the wire contract: its zod schemas validate the input and shape the output
 * (and feed OpenAPI), its auth rule is applied before the handler, the handler returns the data.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { CallDef } from '../../../common/api/define';
import { authorize, type AuthRule, type Principal } from './auth';

export interface RouteContext<C extends CallDef, P> {
  input: z.output<C['input']>;
  principal: P;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Data<C extends CallDef> = Omit<z.input<C['output']>, 'response'>;
type PrincipalFor<R extends AuthRule> = R extends 'anonymous' ? Principal | null : Principal;

export interface RouteOptions<R extends AuthRule> {
  auth: R;
  tags?: readonly string[];
}

export function addRoute<C extends CallDef, R extends AuthRule>(
  app: FastifyInstance,
  def: C,
  options: RouteOptions<R>,
  handler: (ctx: RouteContext<C, PrincipalFor<R>>) => Promise<Data<C>>,
): void {
  const inputKey = def.method === 'GET' ? 'querystring' : 'body';
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    schema: {
      summary: def.summary,
      tags: options.tags ? [...options.tags] : undefined,
      [inputKey]: def.input,
      response: { 200: def.output },
    },
    config: { auth: options.auth, ...(def.changesState ? { csrf: true } : {}) },
    handler: async (request, reply) => {
      const principal = (await authorize(request, options.auth)) as PrincipalFor<R>;
      const input = (def.method === 'GET' ? request.query : request.body) as z.output<C['input']>;
      const data = await handler({ input, principal, request, reply });
      return { response: 'success', ...data };
    },
  });
}

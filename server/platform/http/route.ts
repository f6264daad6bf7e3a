/**
 * Registers one call of the wire contract: its zod schemas validate the input and shape the output
 * (and feed OpenAPI), its auth rule is applied before the handler, the handler returns the data.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { headersOf, IDEMPOTENCY_HEADER, type CallDef } from '../../../common/api/define';
import type { Access } from './access';
import { authorize, type AuthRule, type Principal } from './auth';
import { claimKey, requestFingerprint, type KeyedRequest } from './idempotency';

export interface RouteContext<C extends CallDef, P> {
  input: z.output<C['input']>;
  principal: P;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The Idempotency-Key header, validated, when the call declares one. */
  idempotencyKey: [C['idempotencyKey']] extends ['required'] ? string : string | undefined;
  /** The key with the fingerprint of this request (idempotency.ts), when one was sent. */
  keyed: [C['idempotencyKey']] extends ['required'] ? KeyedRequest : KeyedRequest | undefined;
}

type Data<C extends CallDef> = Omit<z.input<C['output']>, 'response'>;
export type { Data as AnswerData };

const SERIALISED = Symbol('serialised answer');

/** A call's success answer as JSON, made once and sent as it is (a read cache keeps the same bytes for every visitor). */
export interface SerialisedAnswer<C extends CallDef> {
  readonly [SERIALISED]: C;
  readonly json: string;
}

/** Shapes `data` as the route's serialiser would (the call's output schema, wrapped as a success) and keeps the JSON. */
export function serialiseAnswer<C extends CallDef>(def: C, data: Data<C>): SerialisedAnswer<C> {
  return { [SERIALISED]: def, json: JSON.stringify(z.encode(def.output, { response: 'success', ...data })) };
}

const isSerialised = (answer: object): answer is SerialisedAnswer<CallDef> => SERIALISED in answer;
type PrincipalFor<R extends AuthRule> = R extends 'anonymous' ? Principal | null : Principal;

export interface RouteOptions<R extends AuthRule> {
  auth: R;
  /** Who may call it, as the spec says (`ACCESS` in access.ts); the refusal matrix checks it. */
  access: Access;
  tags?: readonly string[];
  /**
   * Where a key's first request is kept (idempotency.ts): claimed here before the handler (the
   * default), or by the handler itself in its ledger transfer (`'transfer'`: the tip's hot path, which
   * compares the fingerprint with assertSameRequest).
   */
  keyKept?: 'claimed' | 'transfer';
}

export function addRoute<C extends CallDef, R extends AuthRule>(
  app: FastifyInstance,
  def: C,
  options: RouteOptions<R>,
  handler: (ctx: RouteContext<C, PrincipalFor<R>>) => Promise<Data<C> | SerialisedAnswer<C>>,
): void {
  const inputKey = def.method === 'GET' ? 'querystring' : 'body';
  app.withTypeProvider<ZodTypeProvider>().route({
    method: def.method,
    url: def.path,
    schema: {
      summary: def.summary,
      tags: options.tags ? [...options.tags] : undefined,
      [inputKey]: def.input,
      ...(def.idempotencyKey ? { headers: headersOf(def) } : {}),
      response: { 200: def.output },
    },
    config: {
      auth: options.auth,
      access: options.access,
      ...(def.changesState ? { csrf: true } : {}),
      openapi: { refusals: def.refusals },
    },
    handler: async (request, reply) => {
      const principal = (await authorize(request, options.auth)) as PrincipalFor<R>;
      const input = (def.method === 'GET' ? request.query : request.body) as z.output<C['input']>;
      const header = request.headers[IDEMPOTENCY_HEADER];
      const key = def.idempotencyKey && typeof header === 'string' ? header : undefined;
      const userId = (principal as Principal | null)?.userId;
      const keyed = key !== undefined && userId !== undefined ? { key, fingerprint: requestFingerprint(def, userId, input) } : undefined;
      if (keyed && userId !== undefined && options.keyKept !== 'transfer') await claimKey(app.idempotencyDb, userId, keyed);
      type Context = RouteContext<C, PrincipalFor<R>>;
      const data = await handler({ input, principal, request, reply, idempotencyKey: key as Context['idempotencyKey'], keyed: keyed as Context['keyed'] });
      if (isSerialised(data)) {
        // A string with a JSON content type is sent without the serialiser: the schema shaped it when it was made.
        reply.type('application/json; charset=utf-8');
        return data.json;
      }
      return { response: 'success', ...data };
    },
  });
}

/** One call of the wire contract: method, path, input schema (query for GET, body otherwise), output. */
import { z } from 'zod';
import { fill, MSG } from '../messages';
import type { CallDescriptor, HttpMethod } from './descriptor';
import { IDEMPOTENCY_HEADER } from './descriptor';

export { IDEMPOTENCY_HEADER, needsCsrf } from './descriptor';
export type { CallDescriptor, HttpMethod } from './descriptor';

/** Failure statuses a call can answer besides 400 (invalid input) and those of its auth rule and CSRF check. */
export type RefusalStatus = 401 | 402 | 403 | 404 | 409 | 413 | 429 | 502 | 503 | 507;

export interface CallDef<M extends HttpMethod = HttpMethod, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: M;
  path: string;
  summary: string;
  input: I;
  output: O;
  /** The failures it answers besides invalid input and those of its auth rule (the API document lists them). */
  refusals?: readonly RefusalStatus[];
  /** A GET the spec made state-changing (send-rating): it carries the CSRF header like a POST. */
  changesState?: boolean;
  /** A call that moves money takes an Idempotency-Key header: a retry with the same key moves nothing again. */
  idempotencyKey?: 'required' | 'optional';
}

export const IDEMPOTENCY_KEY_MAX = 100;

/** The Idempotency-Key header of every call that declares one: printable ASCII, 1–100 characters. */
export const idempotencyKey = z
  .string({ error: MSG.idempotencyKeyRequired })
  .min(1, MSG.idempotencyKeyRequired)
  .max(IDEMPOTENCY_KEY_MAX, fill(MSG.idempotencyKeyTooLong, { max: IDEMPOTENCY_KEY_MAX }))
  .regex(/^[\x21-\x7e]+$/, MSG.idempotencyKeyInvalid)
  .meta({
    description: 'Any unique string per intended action, sent again unchanged with a retry: the retry answers the first outcome and moves nothing.',
    example: '3f2b8c1e-7a4d-4e0f-9b6a-2d5c8e1f0a7b',
  });

/** The headers a call declares, for validation and the API document; other headers pass. */
export function headersOf(def: Pick<CallDef, 'idempotencyKey'>) {
  if (def.idempotencyKey === undefined) return undefined;
  return z.looseObject({ [IDEMPOTENCY_HEADER]: def.idempotencyKey === 'required' ? idempotencyKey : idempotencyKey.optional() });
}

type IdempotencyRule = CallDef['idempotencyKey'];

export function defineCall<M extends HttpMethod, I extends z.ZodType, O extends z.ZodType, K extends IdempotencyRule = undefined>(
  def: CallDef<M, I, O> & { idempotencyKey?: K },
): CallDef<M, I, O> & { idempotencyKey: K } {
  return def as CallDef<M, I, O> & { idempotencyKey: K };
}

/** The call a definition or a descriptor (common/api/calls.ts) stands for. */
type DefOf<C extends CallDescriptor> = C extends { output: unknown } ? C : C extends CallDescriptor<infer D> ? D : never;
export type CallInput<C extends CallDescriptor> = z.input<DefOf<C>['input']>;
export type CallOutput<C extends CallDescriptor> = z.output<DefOf<C>['output']>;

/** A success envelope around the given fields: { response: "success", ...fields }. */
export function success<S extends z.ZodRawShape>(shape: S) {
  return z.object({ response: z.literal('success'), ...shape });
}

export const noInput = z.strictObject({});

/** The failure envelope (docs/architecture.md §5). `field` and `errors` come with validation failures. */
export const failureEnvelope = z.object({
  response: z.string(),
  message: z.string(),
  field: z.string().optional(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type Failure = z.infer<typeof failureEnvelope>;

/** One call of the wire contract: method, path, input schema (query for GET, body otherwise), output. */
import { z } from 'zod';

export type HttpMethod = 'GET' | 'POST';

export interface CallDef<M extends HttpMethod = HttpMethod, I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  method: M;
  path: string;
  summary: string;
  input: I;
  output: O;
  /** A GET the spec made state-changing (send-rating): it carries the CSRF header like a POST. */
  changesState?: boolean;
}

export function defineCall<M extends HttpMethod, I extends z.ZodType, O extends z.ZodType>(
  def: CallDef<M, I, O>,
): CallDef<M, I, O> {
  return def;
}

export type CallInput<C extends CallDef> = z.input<C['input']>;
export type CallOutput<C extends CallDef> = z.output<C['output']>;

/** Whether the call must carry the CSRF header: every POST, and a GET that changes state. */
export const needsCsrf = (def: Pick<CallDef, 'method' | 'changesState'>) => def.method !== 'GET' || def.changesState === true;

/** A success envelope around the given fields: { response: "success", ...fields }. */
export function success<S extends z.ZodRawShape>(shape: S) {
  return z.object({ response: z.literal('success'), ...shape });
}

export const noInput = z.strictObject({});

/** The failure envelope (ARCHITECTURE §4). `field` and `errors` come with validation failures. */
export const failureEnvelope = z.object({
  response: z.string(),
  message: z.string(),
  field: z.string().optional(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type Failure = z.infer<typeof failureEnvelope>;

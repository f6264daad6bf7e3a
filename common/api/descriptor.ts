/**
 * What the web needs to send a call, without its schemas: method, path and flags (decision 0032). The
 * call's schemas ride along as a type only, so input and answer stay typed while no zod code is loaded.
 */
export type HttpMethod = 'GET' | 'POST';

/** A call as far as its types go: a `defineCall`, or a multipart upload (no JSON input). */
export interface Described {
  method: HttpMethod;
  input?: unknown;
  output: unknown;
}

export interface CallDescriptor<C extends Described = Described> {
  readonly method: C['method'];
  readonly path: string;
  /** A GET the spec made state-changing (send-rating): it carries the CSRF header like a POST. */
  readonly changesState?: boolean | undefined;
  /** A call that moves money takes an Idempotency-Key header. */
  readonly idempotencyKey?: 'required' | 'optional' | undefined;
  /** The described call, for its input and output types; never set. */
  readonly call?: C;
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Whether the call must carry the CSRF header: every POST, and a GET that changes state. */
export const needsCsrf = (def: Pick<CallDescriptor, 'method' | 'changesState'>) => def.method !== 'GET' || def.changesState === true;

/**
 * The typed HTTP client: one `call(def, input)` for every call of the wire contract, sent from its
 * descriptor (common/api/calls.ts) without the contract's schemas. Answers are not checked against the
 * output schemas in a production build: the server shapes every answer with them (decision 0032).
 */
import { accounts } from '../../common/api/calls';
import { needsCsrf, type CallDescriptor } from '../../common/api/descriptor';
import type { CallDef, CallInput, CallOutput } from '../../common/api/define';
import { isErrorCode, type ErrorCode } from '../../common/errors';
import { MSG } from '../../common/messages';
import { skinFromPath } from '../../common/skins';

/**
 * What went wrong, for the features to switch on: the envelope's code (common/errors.ts), or, when no
 * answer came, 'network'; an answer outside the contract is 'contract', an unknown code 'internal'.
 */
export type ApiErrorCode = ErrorCode | 'network' | 'contract';

/** A call that did not end in a success envelope. `errors` maps field → message for validation failures. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly field?: string;
  readonly errors?: Record<string, string>;
  /** The whole failure body, for calls whose refusals carry more (e.g. a suggested username). */
  readonly body: Record<string, unknown>;

  constructor(init: {
    status: number;
    code: ApiErrorCode;
    message: string;
    field?: string | undefined;
    errors?: Record<string, string> | undefined;
    body?: Record<string, unknown>;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    if (init.field !== undefined) this.field = init.field;
    if (init.errors !== undefined) this.errors = init.errors;
    this.body = init.body ?? {};
  }
}

/** Whether `error` is a refusal of a call, and of the given code when one is named. */
export function isApiError(error: unknown, code?: ApiErrorCode): error is ApiError {
  return error instanceof ApiError && (code === undefined || error.code === code);
}

let csrfToken: Promise<string> | null = null;

function fetchCsrfToken(): Promise<string> {
  csrfToken ??= call(accounts.csrfToken, {}).then(
    (out) => out.token,
    (error: unknown) => {
      csrfToken = null;
      throw error;
    },
  );
  return csrfToken;
}

/** The session's CSRF token (fetched once and shared), for requests sent outside `call`: the resumable uploads. */
export function getCsrfToken(): Promise<string> {
  return fetchCsrfToken();
}

/** Forget the cached CSRF token; the session (and so the token) changes on login and logout. */
export function resetCsrfToken(): void {
  csrfToken = null;
}

/** The skin of the page being shown (from its route prefix). */
export function currentSkin(): string {
  return skinFromPath(typeof window === 'undefined' ? '/' : window.location.pathname);
}

function toQueryString(input: unknown): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries((input ?? {}) as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

type Payload = { kind: 'json'; input: unknown; keepalive?: boolean; headers?: Record<string, string> | undefined } | { kind: 'form'; form: FormData; query?: Record<string, string | number> | undefined };

type Sendable = Pick<CallDescriptor, 'method' | 'path' | 'changesState'>;

async function send(def: Sendable, payload: Payload): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { ...(payload.kind === 'json' ? payload.headers : {}), 'X-Service': currentSkin(), Accept: 'application/json' };
  const init: RequestInit = { method: def.method, credentials: 'same-origin', headers };
  let url = def.path;
  if (payload.kind === 'form') {
    if (payload.query) url += toQueryString(payload.query);
    // The browser sets the multipart Content-Type with its boundary.
    headers['X-CSRF-Token'] = await fetchCsrfToken();
    init.body = payload.form;
  } else if (def.method === 'GET') {
    url += toQueryString(payload.input);
    if (needsCsrf(def)) headers['X-CSRF-Token'] = await fetchCsrfToken();
  } else {
    headers['Content-Type'] = 'application/json';
    headers['X-CSRF-Token'] = await fetchCsrfToken();
    init.body = JSON.stringify(payload.input ?? {});
    if (payload.keepalive) init.keepalive = true;
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new ApiError({ status: 0, code: 'network', message: MSG.loginGenericError });
  }
  const body: unknown = await response.json().catch(() => null);
  return { status: response.status, body };
}

const isText = (value: unknown): value is string => typeof value === 'string';

/** The failure envelope (common/api/define.ts `failureEnvelope`), read without zod. */
function toApiError(status: number, body: unknown): ApiError {
  const failure = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const { response, message, field, errors } = failure;
  const errorsOk = errors === undefined || (typeof errors === 'object' && errors !== null && Object.values(errors).every(isText));
  if (!isText(response) || !isText(message) || (field !== undefined && !isText(field)) || !errorsOk) {
    return new ApiError({ status, code: 'internal', message: MSG.internal });
  }
  return new ApiError({
    status,
    code: isErrorCode(response) ? response : 'internal',
    message,
    field,
    errors: errors as Record<string, string> | undefined,
    body: failure,
  });
}

/**
 * In development (the Vite dev server, the unit tests) the answer is checked against the call's output
 * schema, found in the whole contract by method and path; a production build leaves this out, and zod with it.
 */
async function outsideContract(def: Sendable, body: unknown): Promise<boolean> {
  if (!import.meta.env.DEV) return false;
  const contract = await import('../../common/api');
  const domains = Object.values(contract as Record<string, unknown>).filter((value): value is Record<string, unknown> => typeof value === 'object' && value !== null);
  const found = domains.flatMap((domain) => Object.values(domain)).find((value) => {
    const candidate = value as Partial<CallDef> | null;
    return candidate?.method === def.method && candidate.path === def.path && candidate.output !== undefined;
  }) as CallDef | undefined;
  const parsed = found?.output.safeParse(body);
  if (!parsed || parsed.success) return false;
  console.error(`Response of ${def.method} ${def.path} does not match the contract`, parsed.error);
  return true;
}

async function exchange<T>(def: Sendable, payload: Payload): Promise<T> {
  let result = await send(def, payload);
  if (needsCsrf(def) && result.status === 403 && toApiError(403, result.body).code === 'csrf') {
    resetCsrfToken();
    result = await send(def, payload);
  }
  const { status, body } = result;
  const isSuccess = status >= 200 && status < 300 && (body as { response?: unknown } | null)?.response === 'success';
  if (!isSuccess) throw toApiError(status, body);
  if (await outsideContract(def, body)) throw new ApiError({ status, code: 'contract', message: MSG.internal });
  return body as T;
}

/**
 * Sends one call: GET input as query string, anything else as a JSON body with the CSRF header.
 * `headers` adds call-specific headers (e.g. a tip's Idempotency-Key).
 */
export function call<C extends CallDescriptor>(def: C, input: CallInput<C>, headers?: Record<string, string>): Promise<CallOutput<C>> {
  return exchange(def, { kind: 'json', input, headers });
}

/** Sends a POST that outlives the page (leaving a stream on unload); the answer is not awaited by anyone. */
export function callKeepalive<C extends CallDescriptor>(def: C, input: CallInput<C>): Promise<CallOutput<C>> {
  return exchange(def, { kind: 'json', input, keepalive: true });
}

/** Sends a multipart form (file uploads) to a POST call; `query`: the call's own fields, where it takes them beside the file. */
export function upload<C extends CallDescriptor & { method: 'POST' }>(def: C, form: FormData, query?: Record<string, string | number>): Promise<CallOutput<C>> {
  return exchange(def, { kind: 'form', form, query });
}

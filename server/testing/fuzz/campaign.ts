/**
 * The campaign: for each target, fast-check draws requests (valid and violating inputs, signed in or
 * anonymous, encoded as a browser would) and sends them through the real app; every answer must be
 * below 500 (a call's declared upstream refusals aside), a failure on /api must be the JSON envelope
 * `{ response, message }`, and a body the contract refuses must never be accepted.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { IDEMPOTENCY_HEADER, needsCsrf } from '../../../common/api/define';
import type { HttpResponse } from '../http-session';
import { validInput, violatingInput, type Hints } from './arbitraries';
import { multipartBody, pathParam, queryString, rawBody, rawQueryNoise, type QueryStyle } from './encode';
import type { FuzzTarget } from './targets';
import type { FuzzWorld } from './world';

export interface FuzzRequest {
  anonymous: boolean;
  url: string;
  /** The JSON value sent as the body, when it was JSON. */
  json?: unknown;
  raw?: { body: string | Buffer; contentType?: string };
  headers: Record<string, string>;
}

/** Plausible values of path parameters by name; hostile ones are drawn besides. */
const PLAUSIBLE_PARAMS: Record<string, string[]> = {
  name: ['a.webp', '1-abc.webp', 'x'],
  streamId: ['1', '2', '3'],
  segment: ['seg0.ts', 'index.m3u8', 'seg-1.ts'],
  token: ['1.dXNlcjox.x', '-'],
  file: ['1.jpg', '2.webp'],
};

function urlArbitrary(target: FuzzTarget, hints: Hints): fc.Arbitrary<string> {
  const ids = hints.ids.map(String);
  const path = target.params.length === 0
    ? fc.constant(target.path)
    : fc.tuple(...target.params.map((name) => pathParam([...(PLAUSIBLE_PARAMS[name] ?? []), ...ids]))).map((values) =>
      target.params.reduce((path, name, i) => path.replace(`:${name}`, values[i]!), target.path));
  if (target.method !== 'GET') {
    return fc.tuple(path, fc.option(rawQueryNoise(), { freq: 8 })).map(([p, noise]) => (noise === null ? p : `${p}?${noise}`));
  }
  const style = fc.constantFrom<QueryStyle>('form', 'percent', 'brackets');
  const input = fc.oneof({ weight: 1, arbitrary: validInput(target.input, hints) }, { weight: 3, arbitrary: violatingInput(target.input, hints) });
  const query = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(input, style).map(([value, s]) => queryString(value, s)) },
    { weight: 1, arbitrary: fc.tuple(input, style, rawQueryNoise()).map(([value, s, noise]) => `${queryString(value, s)}&${noise}`) },
    { weight: 1, arbitrary: rawQueryNoise() },
  );
  return fc.tuple(path, query).map(([p, q]) => (q === '' ? p : `${p}?${q}`));
}

/** Idempotency keys: a fresh valid one mostly, else missing or hostile (ASCII only: other bytes cannot be sent as a header). */
const idempotencyHeader = (): fc.Arbitrary<string | null> => fc.oneof(
  { weight: 6, arbitrary: fc.constant('fresh') },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'a'.repeat(101), 'a'.repeat(5_000), 'same-key', 'key with spaces', '\t') },
);

export function requestArbitrary(target: FuzzTarget, hints: Hints): fc.Arbitrary<FuzzRequest> {
  const body: fc.Arbitrary<Pick<FuzzRequest, 'json' | 'raw'>> = target.method === 'GET'
    ? fc.constant({})
    : fc.oneof(
      { weight: 2, arbitrary: validInput(target.input, hints).map((json) => ({ json })) },
      { weight: 6, arbitrary: violatingInput(target.input, hints).map((json) => ({ json })) },
      { weight: 1, arbitrary: rawBody().map((raw) => ({ raw })) },
      // Uploads go to every POST; a route that takes a file (no JSON schema) gets mostly those.
      { weight: target.call ? 1 : 6, arbitrary: multipartBody().map((raw) => ({ raw })) },
    );
  const headers = target.call?.idempotencyKey
    ? idempotencyHeader().map((key): Record<string, string> => (key === null ? {} : { [IDEMPOTENCY_HEADER]: key === 'fresh' ? randomUUID() : key }))
    : fc.constant({});
  const skinHeader = fc.option(fc.oneof(fc.constantFrom('miitv', 'afterdark', 'personas', 'nope'), fc.string({ maxLength: 200 })), { freq: 10 });
  return fc.record({
    anonymous: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
    url: urlArbitrary(target, hints),
    body,
    headers,
    skin: skinHeader,
  }).map(({ anonymous, url, body, headers, skin }) => ({ anonymous, url, ...body, headers: skin === null ? headers : { ...headers, service: skin } }));
}

export interface Tally {
  inputs: number;
  byStatus: Map<number, number>;
  routes: Set<string>;
}

export const newTally = (): Tally => ({ inputs: 0, byStatus: new Map(), routes: new Set() });

async function send(world: FuzzWorld, target: FuzzTarget, request: FuzzRequest): Promise<HttpResponse<unknown>> {
  const client = request.anonymous ? world.anonymous : (await world.fuzzer()).client;
  const headers = { ...request.headers };
  // A state-changing GET carries the CSRF header like a POST; the session adds it to every POST.
  if (target.method === 'GET' && target.call && needsCsrf(target.call)) headers['x-csrf-token'] = await client.csrf();
  if (request.raw?.contentType !== undefined) headers['content-type'] = request.raw.contentType;
  const body = request.json !== undefined ? JSON.stringify(request.json) : request.raw?.body;
  if (request.json !== undefined) headers['content-type'] = 'application/json';
  return client.request<unknown>(target.method, request.url, { rawBody: body, headers });
}

/** What is wrong with an answer, or null. */
export function judge(target: FuzzTarget, request: FuzzRequest, res: HttpResponse<unknown>): string | null {
  const declared = target.call?.refusals?.includes(res.status as never) ?? false;
  const body = res.body as { response?: unknown; message?: unknown } | undefined;
  if (res.status >= 500 && !(declared && body?.response !== 'internal')) return `answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`;
  if (res.status >= 400 && res.status < 500 && request.url.startsWith('/api/')) {
    if (typeof body !== 'object' || body === null || typeof body.response !== 'string' || typeof body.message !== 'string') {
      return `a ${res.status} without the failure envelope: ${String(JSON.stringify(body)).slice(0, 300)}`;
    }
  }
  if (target.call && request.json !== undefined && res.status < 300) {
    // What the server parsed is what JSON carried: undefined fields vanish, -0 stays a number.
    const parsed = target.call.input.safeParse(JSON.parse(JSON.stringify(request.json)));
    if (!parsed.success) return `accepted a body the contract refuses (${res.status}): ${parsed.error.issues[0]?.message}`;
  }
  return null;
}

/** Ends the session's life when it was signed out by the input (a logout, a changed e-mail): the next request gets a live one. */
async function keepSignedIn(world: FuzzWorld, target: FuzzTarget, request: FuzzRequest, res: HttpResponse<unknown>) {
  if (request.anonymous) return;
  if (target.path === '/api/user/logout' || (res.status === 401 && target.auth === 'user')) await world.revive();
}

/** An answer slower than this is a hang: the request is reported as failed. */
export const REQUEST_TIMEOUT_MS = 10_000;

async function withinTime<T>(work: Promise<T>, ms: number, route: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${route}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface RunOptions {
  numRuns: number;
  seed: number;
  tally: Tally;
}

/** Runs one target's property; throws fast-check's report (seed, path, counterexample) on the first bad answer. */
export async function fuzzTarget(world: FuzzWorld, target: FuzzTarget, options: RunOptions): Promise<void> {
  const hints: Hints = { ids: world.ids };
  const route = `${target.method} ${target.path}`;
  options.tally.routes.add(route);
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(requestArbitrary(target, hints), async (request) => {
      if (process.env.FUZZ_DEBUG === '2') console.log(JSON.stringify(request).slice(0, 400));
      const res = await withinTime(send(world, target, request), REQUEST_TIMEOUT_MS, route);
      options.tally.inputs += 1;
      options.tally.byStatus.set(res.status, (options.tally.byStatus.get(res.status) ?? 0) + 1);
      await keepSignedIn(world, target, request, res);
      const problem = judge(target, request, res);
      if (problem) throw new Error(`${route}: ${problem}`);
    }),
    { numRuns: options.numRuns, seed: options.seed, endOnFailure: true },
  );
  if (process.env.FUZZ_DEBUG) console.log(`fuzzed ${route}: ${options.numRuns} runs in ${Math.round(performance.now() - started)} ms (seed ${options.seed})`);
}

/** A seed per target and round, so that one failing target is replayed alone with the seed its report prints. */
export const seedFor = (base: number, round: number, index: number) => (base + round * 7_919 + index * 104_729) | 0;

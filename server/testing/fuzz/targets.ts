/**
 * What the campaign fuzzes: every route of the route table that takes input, each with the schema its
 * inputs are derived from — the contract's zod schema where the route is a call of the contract (also
 * the judge of which inputs are valid), else the API document's parameters and body.
 */
import type { OpenAPIV3 } from 'openapi-types';
import { z } from 'zod';
import * as contract from '../../../common/api/index';
import type { CallDef } from '../../../common/api/define';
import type { RouteRecord } from '../../platform/http/route-table';
import type { JsonSchema } from './arbitraries';

export interface FuzzTarget {
  method: 'GET' | 'POST';
  /** The route as registered (`/media/hls/:streamId/:token/:segment`). */
  path: string;
  auth: string;
  /** The call of the contract, when the route is one. */
  call?: CallDef;
  /** The query (GET) or body (POST) schema. */
  input: JsonSchema;
  /** The names of the path's parameters. */
  params: string[];
}

/**
 * Routes not fuzzed, and why. Everything else in the route table is.
 * - the built web app's files (module `web`): static files, no input; the fallback to index.html is one handler.
 * - the API document and its UI (`/api/docs…`): swagger-ui's static pages and the document made from the
 *   schemas; they read no input (and the document costs ~0.3 s to render, a hundred inputs' worth).
 * - HEAD routes Fastify adds for every GET: the same handler as the GET, which is fuzzed.
 */
export const SKIPPED: ReadonlyArray<{ why: string; skips: (route: RouteRecord, answersGet: Set<string>) => boolean }> = [
  { why: 'the web app\'s static files', skips: (r) => r.module === 'web' },
  { why: 'the API document and its UI (swagger-ui\'s static files): generated from the schemas, reads no input', skips: (r) => r.path.startsWith('/api/docs') },
  { why: 'HEAD answered by the GET\'s handler', skips: (r, answersGet) => r.method === 'HEAD' && answersGet.has(r.path) },
];

/** Every call of the contract, by `METHOD path`. */
export function contractCalls(): Map<string, CallDef> {
  const calls = new Map<string, CallDef>();
  for (const domain of Object.values(contract)) {
    if (typeof domain !== 'object' || domain === null) continue;
    for (const value of Object.values(domain as Record<string, unknown>)) {
      const def = value as Partial<CallDef> | null;
      if (def && typeof def === 'object' && typeof def.path === 'string' && typeof def.method === 'string' && def.input instanceof z.ZodType) {
        calls.set(`${def.method} ${def.path}`, def as CallDef);
      }
    }
  }
  return calls;
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
const paramsOf = (path: string) => [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);

/** The query or body schema the API document gives a route that is not a call of the contract. */
function documentedInput(doc: OpenAPIV3.Document, method: string, path: string): JsonSchema {
  const operation = doc.paths[openApiPath(path)]?.[method.toLowerCase() as OpenAPIV3.HttpMethods];
  if (!operation) return {};
  if (method === 'GET') {
    const query = (operation.parameters ?? []).filter((p): p is OpenAPIV3.ParameterObject => 'in' in p && p.in === 'query');
    return {
      type: 'object',
      properties: Object.fromEntries(query.map((p) => [p.name, (p.schema ?? {}) as JsonSchema])),
      required: query.filter((p) => p.required).map((p) => p.name),
    };
  }
  const body = operation.requestBody && 'content' in operation.requestBody ? operation.requestBody.content['application/json']?.schema : undefined;
  return (body ?? {}) as JsonSchema;
}

export function fuzzTargets(routes: readonly RouteRecord[], doc: OpenAPIV3.Document): { targets: FuzzTarget[]; skipped: Array<{ route: string; why: string }> } {
  const calls = contractCalls();
  const answersGet = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.path));
  const targets: FuzzTarget[] = [];
  const skipped: Array<{ route: string; why: string }> = [];
  for (const route of routes) {
    const skip = SKIPPED.find((s) => s.skips(route, answersGet));
    if (skip || (route.method !== 'GET' && route.method !== 'POST')) {
      skipped.push({ route: `${route.method} ${route.path}`, why: skip?.why ?? `method ${route.method}` });
      continue;
    }
    const call = calls.get(`${route.method} ${route.path}`);
    const input = call ? (z.toJSONSchema(call.input, { io: 'input', unrepresentable: 'any' }) as JsonSchema) : documentedInput(doc, route.method, route.path);
    targets.push({ method: route.method, path: route.path, auth: route.auth, call, input, params: paramsOf(route.path) });
  }
  return { targets, skipped };
}

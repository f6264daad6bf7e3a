/**
 * The route table: every HTTP route with its auth rule, the module that registered it and the file
 * of its handler; `npm run routes` prints it with the realtime operations, and docs/routes.md is
 * generated from it.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CALLERS, type Access } from './access';

export interface RouteRecord {
  method: string;
  path: string;
  /** `user`, `anonymous`, `admin` … as the route declares; `public` for routes outside the call definitions. */
  auth: string;
  module: string;
  handler: string;
  /** Who may call it (route option or `config.access`; for a plugin's routes, what its installer declared). */
  access?: Access;
}

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PLUMBING = /[\\/](node_modules|platform[\\/]http[\\/](route|route-table)\.ts|platform[\\/]module-loader\.ts)/;

/** The first file of ours on the stack that is not the registration plumbing: the one that declared the route. */
function declaringFile(): string | null {
  for (const line of (new Error().stack ?? '').split('\n').slice(1)) {
    const match = /(?:file:\/\/)?(\/[^\s():]+\.(?:ts|tsx|js|mjs)):\d+/.exec(line);
    if (!match || PLUMBING.test(match[1]!) || !match[1]!.startsWith(ROOT)) continue;
    return path.relative(ROOT, match[1]!);
  }
  return null;
}

export function recordRoutes(app: FastifyInstance) {
  const routes: RouteRecord[] = [];
  let owner = 'platform';
  // A plugin registers its routes from its own code: they are put down to the file that installed it.
  let installer = '(unknown)';
  let pluginAccess: Access | undefined;
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const config = (route.config ?? {}) as { auth?: string; access?: Access };
    const access = config.access ?? pluginAccess;
    for (const method of methods) {
      routes.push({ method, path: route.url, auth: config.auth ?? 'public', module: owner, handler: declaringFile() ?? installer, ...(access ? { access } : {}) });
    }
  });
  return {
    routes,
    /**
     * Routes registered while `work` runs belong to this module (and, when a plugin registers them, to
     * `file`); `access` is who may call the routes a plugin registers without declaring it.
     */
    async as<T>(module: string, work: () => Promise<T> | T, file = '(unknown)', access?: Access): Promise<T> {
      owner = module;
      installer = file;
      pluginAccess = access;
      try {
        return await work();
      } finally {
        owner = 'platform';
        installer = '(unknown)';
        pluginAccess = undefined;
      }
    },
  };
}

export interface RealtimeRecord {
  op: string;
  name: string;
  auth: string;
  module: string;
  handler: string;
}

const byPath = (a: RouteRecord, b: RouteRecord) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method);

/** The module name of the built web app's files: one route per file of the build, so listed as one line. */
export const WEB_APP = 'web';

/** A markdown table: a header row, its rule, and the rows. */
export function markdownTable(header: string[], rows: string[][]): string[] {
  const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [row(header), row(header.map(() => '---')), ...rows.map(row)];
}

export const code = (text: string) => `\`${text}\``;

/**
 * The auth column: the route's own rule, but for a route open to anyone at the door that answers 404 to
 * whoever may not use it (the console's calls: the handler decides, and tells no one else it exists),
 * who may call it, from its access data: `admin or UPDATE STREAM_ANY (404 otherwise)`.
 */
export function authLabel(route: Pick<RouteRecord, 'auth' | 'access'>): string {
  const { access } = route;
  if (route.auth !== 'anonymous' || !access || access.cells.anonymous === 'ok') return route.auth;
  const perms = Object.entries(access.perms ?? {});
  const refusals = new Set([...Object.values(access.cells), ...perms.map(([, outcome]) => outcome)].filter((outcome) => outcome !== 'ok'));
  if (refusals.size !== 1 || !refusals.has(404)) return route.auth;
  const permitted = perms.filter(([, outcome]) => outcome === 'ok').map(([perm]) => perm);
  // The moderator is a bundle of permissions: the permissions say it better when there are some.
  const callers = CALLERS.filter((caller) => access.cells[caller] === 'ok' && !(caller === 'moderator' && permitted.length > 0));
  return `${[...callers, ...permitted].join(' or ')} (404 otherwise)`;
}

/** The route table as docs/routes.md holds it. */
export function renderRouteTable(routes: readonly RouteRecord[], realtime: readonly RealtimeRecord[]): string {
  // Fastify answers HEAD for every GET by itself: those are not routes of ours.
  const answersGet = new Set(routes.filter((r) => r.method === 'GET').map((r) => r.path));
  const listed = routes.filter((r) => r.module !== WEB_APP && !(r.method === 'HEAD' && answersGet.has(r.path)));
  return [
    '# Routes',
    '',
    'Generated by `npm run routes -- --write` from the running app: every HTTP route and realtime operation,',
    'with its auth rule, the module that registers it and the file of its handler. A test fails when this file is stale.',
    'Every path answers with a trailing slash too, as the spec writes a few (`/api/user/user-lookup/`).',
    '',
    '## HTTP',
    '',
    ...markdownTable(['method', 'path', 'auth', 'module', 'handler'],
      listed.sort(byPath).map((r) => [r.method, code(r.path), authLabel(r), r.module, code(r.handler)])),
    '',
    'Every other GET outside these prefixes answers the built web app (its files, else `index.html`): `server/platform/http/web-app.ts`.',
    '',
    '## Realtime (WebSocket `/ws`)',
    '',
    ...markdownTable(['op', 'name', 'auth', 'module', 'handler'], realtime.map((r) => [r.op, code(r.name), r.auth, r.module, code(r.handler)])),
    '',
  ].join('\n');
}

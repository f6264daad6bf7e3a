/**
 * The edge cache's nginx configuration (deploy/nginx/limelight.conf, decision 0066) filled in for one
 * deployment: the instances, the address to listen on, the cache and state folders. scripts/edge-config.ts
 * prints it for a deployment; the tests and the bench render it the same way.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Debian's nginx and its njs module (libnginx-mod-http-js). */
export const NGINX_PATH = '/usr/sbin/nginx';
export const NJS_MODULE = '/usr/lib/nginx/modules/ngx_http_js_module.so';
/** The template and media-edge.js beside it. */
export const EDGE_DIR = path.resolve(import.meta.dirname, '..', '..', '..', 'deploy', 'nginx');

export interface EdgeConfigOptions {
  /** nginx's `listen`: a port or address:port. */
  listen: string;
  /** The API instances, host:port each. */
  upstreams: string[];
  cacheDir: string;
  /** Where nginx keeps its pid, error log and temporary files. */
  stateDir: string;
  /** `auto` (one per core) unless given. */
  workers?: number | 'auto';
  /** The cache's largest size on disk, in nginx's units (`4g`). */
  cacheMax?: string;
  njsModule?: string;
}

const SAFE = /^[\w./:@[\]-]+$/;

export function renderEdgeConfig(o: EdgeConfigOptions): string {
  if (o.upstreams.length === 0) throw new Error('at least one --upstream is needed');
  const values: Record<string, string> = {
    LISTEN: o.listen,
    UPSTREAMS: o.upstreams.map((server) => `    server ${server} max_fails=3 fail_timeout=5s;`).join('\n'),
    CACHE_DIR: o.cacheDir,
    STATE_DIR: o.stateDir,
    WORKERS: String(o.workers ?? 'auto'),
    CACHE_MAX: o.cacheMax ?? '4g',
    NJS_MODULE: o.njsModule ?? NJS_MODULE,
    NJS_DIR: EDGE_DIR,
  };
  for (const [name, value] of Object.entries(values)) {
    if (name !== 'UPSTREAMS' && !SAFE.test(value)) throw new Error(`${name}: ${JSON.stringify(value)} is not a plain address or path`);
  }
  for (const server of o.upstreams) if (!SAFE.test(server)) throw new Error(`upstream ${JSON.stringify(server)} is not host:port`);
  const text = readFileSync(path.join(EDGE_DIR, 'limelight.conf'), 'utf8').replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`limelight.conf names {{${name}}}, which has no value`);
    return value;
  });
  return text;
}

/**
 * nginx as the public entry of a local deployment: one address for the web app, the API, the socket and
 * media, spread over the API instances (a closed instance is skipped at once: `proxy_next_upstream`),
 * run from Debian's package in the foreground with its files in the deployment's directory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const NGINX = '/usr/sbin/nginx';

export interface NginxSite {
  port: number;
  apiInstances: Array<{ port: number }>;
}

export function nginxConfig(site: NginxSite, directory: string): string {
  const servers = site.apiInstances.map((instance) => `    server 127.0.0.1:${instance.port} max_fails=1 fail_timeout=5s;`).join('\n');
  return `# Written by scripts/deploy/nginx.ts for a local deployment.
worker_processes 1;
pid ${directory}/nginx.pid;
error_log ${directory}/error.log warn;
events { worker_connections 4096; }
http {
  access_log ${directory}/access.log;
  client_body_temp_path ${directory}/client-body;
  proxy_temp_path ${directory}/proxy;
  fastcgi_temp_path ${directory}/fastcgi;
  uwsgi_temp_path ${directory}/uwsgi;
  scgi_temp_path ${directory}/scgi;
  types { text/html html; application/javascript js; text/css css; }

  upstream api {
${servers}
    keepalive 32;
  }
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }

  server {
    listen 127.0.0.1:${site.port};
    # Upload chunks are 1 MB; a post's whole file never passes in one request.
    client_max_body_size 8m;
    proxy_http_version 1.1;
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header Connection $connection_upgrade;
    proxy_set_header Upgrade $http_upgrade;
    # An instance that is gone (killed, deploying) is skipped for the next one, for requests that may repeat.
    proxy_next_upstream error timeout http_502 http_503;
    proxy_connect_timeout 2s;

    location /ws {
      proxy_pass http://api;
      proxy_read_timeout 1h;
      proxy_buffering off;
    }
    location /uploads {
      proxy_pass http://api;
      proxy_request_buffering off;
    }
    location / {
      proxy_pass http://api;
    }
  }
}
`;
}

export interface RunningNginx {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export async function startNginx(site: NginxSite, directory: string): Promise<RunningNginx> {
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed (${NGINX}): apt-get install nginx`);
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, 'nginx.conf');
  writeFileSync(file, nginxConfig(site, directory));
  const child = spawn(NGINX, ['-p', directory, '-c', file, '-e', path.join(directory, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${site.port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx did not start: ${errors.trim()}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok).catch(() => false)) break;
    if (attempt > 100) throw new Error('nginx did not answer');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
    },
  };
}

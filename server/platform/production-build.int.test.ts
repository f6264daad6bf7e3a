/**
 * The production build (decision 0067): scripts/build-server.ts bundles the server, and the bundle, run by
 * node alone as `npm run start:prod` runs it, applies the migrations it carries, answers its health
 * checks, serves the web app and the API on this project's database — with production's defaults when
 * NODE_ENV is unset (no demo data). Built here into a folder of its own, so that a broken build fails this
 * file and a concurrent build elsewhere cannot disturb it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { freshDatabase, type FreshDatabase } from '../testing/databases';
import { startServerProcess, type ServerProcess } from '../testing/server';

const INDEX_HTML = '<!doctype html><html><head><title>Limelight (built)</title></head><body><div id="root"></div></body></html>';

let outDir: string;
let web: string;
let database: FreshDatabase;
let server: ServerProcess;
let bundle: string;

beforeAll(async () => {
  mkdirSync('.tmp', { recursive: true });
  outDir = mkdtempSync(path.resolve('.tmp/server-build-'));
  bundle = (await buildServer(outDir)).file;
  web = mkdtempSync(path.join(os.tmpdir(), 'll-web-'));
  writeFileSync(path.join(web, 'index.html'), INDEX_HTML);
  database = await freshDatabase(inject('dbTemplate'));
  // A fresh migrated database: the server still reads every migration it carries to see that none is new.
  server = await startServerProcess({
    ...(database.target.kind === 'postgres' ? { DATABASE_URL: database.target.url } : {}),
    WEB_DIST: web,
    // As an operator starts it: NODE_ENV and the test helper's conveniences unset.
    NODE_ENV: undefined,
    MAIL_OUTBOX: undefined,
    PAYMENTS: undefined,
  }, { compiled: bundle, dataDir: database.dataDir, captureStdout: true, readyMs: 90_000 });
}, 150_000);

afterAll(async () => {
  await server?.stop();
  await database?.dispose();
  rmSync(outDir, { recursive: true, force: true });
  rmSync(web, { recursive: true, force: true });
});

describe('the compiled server', () => {
  it('is plain JavaScript run by node alone, without tsx', () => {
    const source = readFileSync(bundle, 'utf8');
    expect(source).not.toMatch(/from ["']tsx/);
    expect(server.child.spawnargs.slice(1)).toEqual([bundle]);
  });

  it('answers its health checks', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ response: 'success', status: 'ok' });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });

  it('serves the web app, its index for any page', async () => {
    for (const page of ['/', '/dashboard']) {
      const res = await fetch(`${server.url}${page}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toBe(INDEX_HTML);
    }
  });

  it('serves the API on the migrated database: the base channels', async () => {
    const res = await fetch(`${server.url}/api/channel/base-group`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { response: string; channels: Array<{ name: string }> };
    expect(body.response).toBe('success');
    expect(body.channels.map((c) => c.name)).toEqual(expect.arrayContaining(['Popular', 'Discover']));
  });

  it('serves the API document with its brand mark', async () => {
    const document = await fetch(`${server.url}/api/docs/json`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { info: { title: string } }).info.title).toBe('Limelight API');
    const mark = await fetch(`${server.url}/api/docs/static/theme/favicon.svg`);
    expect(mark.status).toBe(200);
    expect(await mark.text()).toContain('<svg');
  });

  it('runs with production defaults when NODE_ENV is unset: no demo accounts, no test cards', async () => {
    const search = await fetch(`${server.url}/api/channel/search-user?search=broadcaster`);
    expect(((await search.json()) as { total: number }).total).toBe(0);
    expect(server.stdout()).not.toMatch(/Demo logins/);
    const methods = (await (await fetch(`${server.url}/api/wallet/payment-methods`)).json()) as { methods: Array<{ id: string; available: boolean }> };
    expect(methods.methods.find((m) => m.id === 'card')?.available).toBe(false);
  });
});

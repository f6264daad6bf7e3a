/** Starts the real app on a fresh database for one integration test file. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import type { OpenedResources } from '../bootstrap';
import { createTemplate, dropTemplate, freshDatabase, type FreshDatabase } from './databases';
import { createGiven, type Given } from './given';
import { HttpSession } from './http-session';
import { openApp } from './server';

export type { LiveStream, SignedInUser, TestUser } from './given';

export interface TestApp {
  app: FastifyInstance;
  resources: OpenedResources;
  /** A new session (no cookies) on the app, through inject. */
  client(headers?: Record<string, string>): HttpSession;
  given: Given;
  close(): Promise<void>;
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const fresh = await freshDatabase(inject('dbTemplate'));
  return startOn(fresh, env, () => fresh.dispose());
}

/**
 * Instances of the app sharing one fresh PostgreSQL database (TEST_DATABASE_URL), as when scaled
 * out; give them REDIS_URL to share a bus. Each closes its own resources; the last close drops the database.
 * `env` may differ per instance (a function of its index: ROLE=media for one, ROLE=api for another).
 */
export async function startSharedTestApps(count: number, env: Record<string, string> | ((index: number) => Record<string, string>) = {}): Promise<TestApp[]> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is required for shared instances');
  const given = inject('dbTemplate');
  const template = given.kind === 'postgres' ? given : await createTemplate('postgres', url);
  const fresh = await freshDatabase(template);
  let open = count;
  const release = async () => {
    open -= 1;
    if (open > 0) return;
    await fresh.dispose();
    if (template !== given) await dropTemplate(template);
  };
  const apps: TestApp[] = [];
  for (let i = 0; i < count; i++) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-instance-'));
    apps.push(await startOn({ ...fresh, dataDir }, typeof env === 'function' ? env(i) : env, async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await release();
    }));
  }
  return apps;
}

/** startSharedTestApps, each instance listening on 127.0.0.1: the apps with their base addresses. */
export async function startListeningSharedApps(count: number, env: Record<string, string> = {}): Promise<Array<{ t: TestApp; baseUrl: string }>> {
  const apps = await startSharedTestApps(count, env);
  return Promise.all(apps.map(async (t) => ({ t, baseUrl: await t.app.listen({ port: 0, host: '127.0.0.1' }) })));
}

async function startOn(fresh: Omit<FreshDatabase, 'dispose'>, env: Record<string, string>, dispose: () => Promise<void>): Promise<TestApp> {
  const { app, resources, close } = await openApp(fresh.dataDir, {
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEB_DIST: `${fresh.dataDir}/no-web-build`,
    ...(fresh.target.kind === 'postgres' ? { DATABASE_URL: fresh.target.url } : {}),
    ...env,
  });
  return {
    app,
    resources,
    client: (headers) => HttpSession.over(app, headers),
    given: createGiven(app, resources),
    async close() {
      await close();
      await dispose();
    },
  };
}

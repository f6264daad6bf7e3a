/** Starts the real app on a fresh database for one integration test file. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { DEFAULT_PERMISSIONS, type Permission, type Role } from '../../common/permissions';
import type { SkinId } from '../../common/skins';
import { buildApp } from '../app';
import { createAccountAdmin } from '../modules/accounts/admin';
import { openResources, type OpenedResources } from '../bootstrap';
import { loadConfig } from '../config';
import { createTemplate, dropTemplate, freshDatabase, type FreshDatabase } from './databases';
import { TestClient } from './test-client';

export interface TestUser {
  id: number;
  username: string;
  email: string;
  password: string;
}

export interface TestApp {
  app: FastifyInstance;
  resources: OpenedResources;
  client(headers?: Record<string, string>): TestClient;
  given: {
    user(options?: { username?: string; role?: Role; perms?: Permission[]; termsAccepted?: boolean; skin?: SkinId }): Promise<TestUser>;
    signedIn(user: TestUser): Promise<TestClient>;
  };
  close(): Promise<void>;
}

let counter = 0;

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const fresh = await freshDatabase(inject('dbTemplate'));
  return startOn(fresh, env, () => fresh.dispose());
}

/**
 * Instances of the app sharing one fresh PostgreSQL database (TEST_DATABASE_URL), as when scaled
 * out; give them REDIS_URL to share a bus. Each closes its own resources; the last close drops the database.
 */
export async function startSharedTestApps(count: number, env: Record<string, string> = {}): Promise<TestApp[]> {
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
    apps.push(await startOn({ ...fresh, dataDir }, env, async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await release();
    }));
  }
  return apps;
}

async function startOn(fresh: Omit<FreshDatabase, 'dispose'>, env: Record<string, string>, dispose: () => Promise<void>): Promise<TestApp> {
  const config = loadConfig({
    DATA_DIR: fresh.dataDir,
    CAPTCHA: 'off',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SEED_DEMO: 'off',
    RTMP_PORT: '0',
    // Every test request comes from one address; the limit itself is tested with a small value.
    SIGNUPS_PER_ADDRESS: '100000',
    WEB_DIST: `${fresh.dataDir}/no-web-build`,
    ...(fresh.target.kind === 'postgres' ? { DATABASE_URL: fresh.target.url } : {}),
    ...env,
  });
  const resources = await openResources(config);
  const app = await buildApp(resources);
  await app.ready();

  const given: TestApp['given'] = {
    async user(options = {}) {
      counter += 1;
      const username = options.username ?? `user${process.pid}x${counter}`;
      const password = `pass-${username}-secret`;
      const email = `${username}@test.example`;
      const id = await app.services.accounts.createAccount(resources.database.db, {
        username,
        email,
        password,
        birthdayIso: '1995-05-05',
        country: 'US',
        termsAccepted: options.termsAccepted ?? true,
        skin: options.skin ?? 'limelight',
        role: options.role,
      });
      if (options.perms) {
        const admin = createAccountAdmin({ db: resources.database.db });
        for (const perm of DEFAULT_PERMISSIONS) await admin.revoke(username, perm);
        for (const perm of options.perms) await admin.grant(username, perm);
      }
      return { id, username, email, password };
    },
    async signedIn(user) {
      const client = new TestClient(app);
      const res = await client.post('/api/user/user-login', { username: user.username, password: user.password });
      if (res.status !== 200) throw new Error(`login failed for ${user.username}: ${JSON.stringify(res.body)}`);
      return client;
    },
  };

  return {
    app,
    resources,
    client: (headers) => new TestClient(app, headers),
    given,
    async close() {
      await app.close();
      await resources.close();
      await dispose();
    },
  };
}

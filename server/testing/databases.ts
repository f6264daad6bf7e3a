/**
 * Fresh databases for tests. A migrated template is made once per run (a PGlite data dir copied per
 * file, or a PostgreSQL template database cloned per file): initdb and migrations do not repeat.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseTarget } from '../platform/db/client';
import { applyMigrations } from '../platform/db/migrate';
import { ensureReferenceData } from '../bootstrap';

export type DatabaseTemplate = { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string; template: string };

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function migrateInto(target: DatabaseTarget) {
  const database = await openDatabase(target);
  try {
    await applyMigrations(database.pool);
    await ensureReferenceData(database);
  } finally {
    await database.close();
  }
}

export async function createTemplate(kind: 'pglite' | 'postgres', postgresUrl?: string): Promise<DatabaseTemplate> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'll-template-'));
    await migrateInto({ kind: 'pglite', dir });
    return { kind, dir };
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL suites');
  const template = `ll_template_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin(postgresUrl, (c) => c.query(`CREATE DATABASE ${template}`));
  await migrateInto({ kind: 'postgres', url: withDatabase(postgresUrl, template), poolSize: 2 });
  return { kind, url: postgresUrl, template };
}

export async function dropTemplate(template: DatabaseTemplate): Promise<void> {
  if (template.kind === 'pglite') rmSync(template.dir, { recursive: true, force: true });
  else await admin(template.url, (c) => c.query(`DROP DATABASE IF EXISTS ${template.template} WITH (FORCE)`));
}

export interface FreshDatabase {
  target: DatabaseTarget;
  /** For the embedded database, the data dir (its parent holds the lock). */
  dataDir: string;
  dispose(): Promise<void>;
}

/** A migrated database copied from the template; `empty`: a database of the same kind with nothing in it (a restore's target). */
export async function freshDatabase(template: DatabaseTemplate, options: { empty?: boolean } = {}): Promise<FreshDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-test-'));
  if (template.kind === 'pglite') {
    const dir = path.join(dataDir, 'db');
    if (!options.empty) cpSync(template.dir, dir, { recursive: true });
    return { target: { kind: 'pglite', dir }, dataDir, dispose: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `ll_test_${randomBytes(6).toString('hex')}`;
  // Two clones of one template at the same moment can collide ("being accessed by other users"): retry.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin(template.url, (c) => c.query(`CREATE DATABASE ${name}${options.empty ? '' : ` TEMPLATE ${template.template}`}`));
      break;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
  return {
    target: { kind: 'postgres', url: withDatabase(template.url, name), poolSize: 10 },
    dataDir,
    async dispose() {
      await admin(template.url, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

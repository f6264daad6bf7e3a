/**
 * The database half of a backup. PostgreSQL: `pg_dump --format=custom` (one consistent snapshot while
 * the platform keeps running) and `pg_restore` into an empty database, both from the machine's
 * PostgreSQL client tools. The embedded database: PGlite's own data-directory archive, taken and loaded
 * while no server holds the data dir (its lock says so).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { DatabaseTarget } from '../db/client';

export class BackupError extends Error {}

/** The connection without its password on the command line (where `ps` would show it): PGPASSWORD carries it. */
function clientArguments(url: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { args: ['--dbname', parsed.toString()], env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => { errors += chunk.toString(); });
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(new BackupError(error.code === 'ENOENT' ? `${tool} is not installed: install the PostgreSQL client tools (Debian: postgresql-client) matching the server's version` : error.message));
    });
    child.once('close', (code) => (code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit ${code}): ${errors.trim()}`))));
  });
}

export async function dumpDatabase(target: DatabaseTarget, file: string): Promise<void> {
  if (target.kind === 'postgres') {
    const { args, env } = clientArguments(target.url);
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', file, ...args], env);
    return;
  }
  if (!existsSync(target.dir)) throw new BackupError(`No embedded database at ${target.dir}`);
  const db = await PGlite.create({ dataDir: target.dir, extensions: { pg_trgm } });
  try {
    const archive = await db.dumpDataDir('gzip');
    await writeFile(file, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await db.close();
  }
}

/** Tables outside PostgreSQL's own schemas: a restore goes only into a database that has none. */
async function userTableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ count: string }>(
      `select count(*) as count from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`);
    return Number(result.rows[0]?.count ?? 0);
  } finally {
    await client.end();
  }
}

export async function restoreDatabase(target: DatabaseTarget, file: string): Promise<void> {
  if (target.kind === 'postgres') {
    if ((await userTableCount(target.url)) > 0) throw new BackupError('The target database is not empty: restore into a newly created database');
    const { args, env } = clientArguments(target.url);
    await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', ...args, file], env);
    return;
  }
  if (existsSync(target.dir) && readdirSync(target.dir).length > 0) {
    throw new BackupError(`The embedded database at ${target.dir} already exists: restore into a new DATA_DIR`);
  }
  const archive = new Blob([await readFile(file)]);
  const db = await PGlite.create({ dataDir: target.dir, loadDataDir: archive, extensions: { pg_trgm } });
  await db.close();
}

/**
 * A benchmark's own server: a fresh PostgreSQL database (created, then dropped), the server started on it
 * as its own process with the demo data, and a small pool for the benchmark's own reads.
 */
import pg from 'pg';
import { startServerProcess } from '../server/testing/server';
import { emptyPostgresDatabase } from '../server/testing/tip-load';

export interface ServerOnPostgres {
  server: Awaited<ReturnType<typeof startServerProcess>>;
  pool: pg.Pool;
  /** The first row's `n` of a counting query. */
  count(query: string, params?: unknown[]): Promise<number>;
}

export async function onFreshDatabase(name: string, env: Record<string, string>, work: (on: ServerOnPostgres) => Promise<void>): Promise<void> {
  const db = await emptyPostgresDatabase(name);
  const server = await startServerProcess({ SEED_DEMO: 'on', ...env, DATABASE_URL: db.url });
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const count = async (query: string, params: unknown[] = []) => Number((await pool.query<{ n: string }>(query, params)).rows[0]!.n);
  try {
    await work({ server, pool, count });
  } finally {
    await pool.end();
    await server.stop();
    await db.drop();
  }
}

/** Runs a benchmark's main, failing the process when it throws. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

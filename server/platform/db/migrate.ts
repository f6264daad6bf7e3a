/** Applies the migrations in ./migrations (the same files on PGlite and PostgreSQL). */
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * On one connection whose statement and lock timeouts are off: a migration may rewrite a large table or wait
 * for the locks of requests still running elsewhere, where a request may not. RESET gives the connection its
 * configured timeouts back before the pool hands it on.
 */
export async function applyMigrations(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('set statement_timeout = 0');
    await client.query('set lock_timeout = 0');
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_DIR });
    await client.query('reset statement_timeout');
    await client.query('reset lock_timeout');
    client.release();
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/** The database: drizzle over `pg`, reaching PostgreSQL or the embedded PGlite worker the same way. */
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { startEmbeddedDatabase } from './embedded';

export type Db = NodePgDatabase;
/** The transaction handle: pass it explicitly to everything that runs inside a transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either: a function that only reads or writes once may take the database or a transaction. */
export type Executor = Db | Tx;

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize: number; timeouts?: DatabaseTimeouts }
  | { kind: 'pglite'; dir: string };

/** Bounds on waiting, per connection (PostgreSQL): past them the statement fails and the request answers 503. */
export interface DatabaseTimeouts {
  statementMs: number;
  lockMs: number;
}

/**
 * A connection that breaks while a request holds it (a terminated backend, a failover) emits 'error' on
 * its client; pg-pool listens only while the client is idle, so without a listener of our own the event
 * would end the process. The query that was running already failed with the same error, and the pool
 * discards the broken client when it is released: there is nothing more to do here.
 */
function survivingBrokenConnections(pool: pg.Pool): void {
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
}

const sessionOptions = (timeouts: DatabaseTimeouts | undefined) =>
  ['-c plan_cache_mode=force_generic_plan', ...(timeouts ? [`-c statement_timeout=${timeouts.statementMs}`, `-c lock_timeout=${timeouts.lockMs}`] : [])].join(' ');

export interface Database {
  kind: DatabaseTarget['kind'];
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

const INT8_OID = 20;

// int8 arrives as text from `pg`; our bigint ids stay below 2^53, so read them as numbers everywhere.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'postgres') {
    // Only named prepared statements (the hot paths: sessions, money) are cached plans; planned anew on
    // every call, the one-statement tip spent more time planning than running.
    const pool = new pg.Pool({ connectionString: target.url, max: target.poolSize, types, options: sessionOptions(target.timeouts) });
    survivingBrokenConnections(pool);
    return { kind: 'postgres', db: drizzle({ client: pool }), pool, close: () => pool.end() };
  }
  const embedded = await startEmbeddedDatabase(target.dir);
  // PGlite is one session: the pool's single client serialises queries and transactions. It stays
  // open while idle; `pg` still replaces it after a failed query (the worker accepts the overlap).
  const pool = new pg.Pool({
    host: embedded.socketDir,
    port: embedded.port,
    user: 'postgres',
    database: 'template1',
    max: 1,
    idleTimeoutMillis: 0,
    types,
  });
  survivingBrokenConnections(pool);
  return {
    kind: 'pglite',
    db: drizzle({ client: pool }),
    pool,
    async close() {
      await pool.end();
      await embedded.stop();
    },
  };
}

/** SQLSTATE of a database error, through drizzle's wrapper (docs/architecture.md §6). */
export function sqlState(error: unknown): string | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === 'object' && !seen.has(current)) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export const UNIQUE_VIOLATION = '23505';

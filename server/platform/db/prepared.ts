/**
 * Named prepared statements for hot paths: PostgreSQL parses and plans each text once per connection
 * instead of on every call (docs/architecture.md §6: round trips and parsing dominate money paths).
 */
import { sqlState } from './client';

/** The embedded database is one session behind every connection: a new connection finds the name taken. */
const DUPLICATE_PREPARED_STATEMENT = '42P05';

/**
 * Runs `named` until the database refuses a statement name as taken (the embedded database), then
 * `plain` from then on — nothing ran, the statement failed at parse. One per statement source.
 */
export function namedStatementRunner() {
  let named = true;
  return async <R>(runNamed: () => Promise<R>, runPlain: () => Promise<R>): Promise<R> => {
    if (named) {
      try {
        return await runNamed();
      } catch (error) {
        if (sqlState(error) !== DUPLICATE_PREPARED_STATEMENT) throw error;
        named = false;
      }
    }
    return runPlain();
  };
}

interface Executable<V, R> {
  execute(values?: V): Promise<R>;
}

/** A drizzle query as the prepared statement `name` (see namedStatementRunner). */
export function preparedStatement<V extends Record<string, unknown>, R>(
  query: Executable<V, R> & { prepare(name: string): Executable<V, R> },
  name: string,
): (values: V) => Promise<R> {
  const prepared = query.prepare(name);
  const run = namedStatementRunner();
  return (values) => run(() => prepared.execute(values), () => query.execute(values));
}

/** `preparedStatement` built at its first call: for a query that reads what is filled after its module is built (a hook's SQL). */
export function preparedOnFirstUse<V extends Record<string, unknown>, R>(
  build: () => Executable<V, R> & { prepare(name: string): Executable<V, R> },
  name: string,
): (values: V) => Promise<R> {
  let run: ((values: V) => Promise<R>) | undefined;
  return (values) => (run ??= preparedStatement(build(), name))(values);
}

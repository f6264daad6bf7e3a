/**
 * Named prepared statements for hot paths: PostgreSQL parses and plans each text once per connection
 * instead of on every call (ARCHITECTURE §3: round trips and parsing dominate money paths).
 */
import { sqlState } from './client';

/** The embedded database is one session behind every connection: a new connection finds the name taken. */
export const DUPLICATE_PREPARED_STATEMENT = '42P05';

interface Executable<V, R> {
  execute(values?: V): Promise<R>;
}

/**
 * Runs `query` as the prepared statement `name`; where the name is already taken by another connection
 * of the same session (the embedded database), it runs unnamed from then on — nothing ran, the
 * statement failed at parse.
 */
export function preparedStatement<V extends Record<string, unknown>, R>(
  query: Executable<V, R> & { prepare(name: string): Executable<V, R> },
  name: string,
): (values: V) => Promise<R> {
  const prepared = query.prepare(name);
  let named = true;
  return async (values) => {
    if (named) {
      try {
        return await prepared.execute(values);
      } catch (error) {
        if (sqlState(error) !== DUPLICATE_PREPARED_STATEMENT) throw error;
        named = false;
      }
    }
    return query.execute(values);
  };
}

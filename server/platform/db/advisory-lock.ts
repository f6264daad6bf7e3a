/**
 * A lock held until the end of the caller's transaction, named by text (`goals:<stream>`): on every
 * instance, for writes that must go one at a time per object. The name is hashed to 64 bits, so ids past
 * 2^31 need no cast.
 */
import { sql } from 'drizzle-orm';
import type { Executor } from './client';

export const lockForTransaction = (tx: Pick<Executor, 'execute'>, name: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${name}, 0))`);

/**
 * The pool's connections plan every statement generically (`plan_cache_mode = force_generic_plan`, decision
 * 0012): right for the hot paths, which are written to plan well without their values. A search by a
 * pattern is not: only a plan that sees the pattern turns its leading text into an index range, or weighs a
 * trigram index against its length. These statements run in a transaction of their own, planned for their values
 * (decision 0073).
 */
import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client';

export function withPlansForValues<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local plan_cache_mode = force_custom_plan`);
    return work(tx);
  });
}

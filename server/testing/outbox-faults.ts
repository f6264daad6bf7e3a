/**
 * Faults for tests of the event outbox (decision 0052): a durable handler that dies before its effect is
 * a write its table refuses; the event stays undelivered, as after a kill between the commit and the
 * handler. Triggers, so they work alike on PostgreSQL and the embedded database.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../platform/db/client';

/** Every statement writing to `table` fails until `heal()`. */
export async function refusingWrites(db: Db, table: string): Promise<{ heal(): Promise<void> }> {
  const trigger = sql.identifier(`refuse_${table}`);
  await db.execute(sql`create or replace function ll_test_refuse_write() returns trigger language plpgsql as $$ begin raise exception 'write refused by the test'; end $$`);
  await db.execute(sql`create trigger ${trigger} before insert or update or delete on ${sql.identifier(table)} for each statement execute function ll_test_refuse_write()`);
  return { heal: async () => void (await db.execute(sql`drop trigger ${trigger} on ${sql.identifier(table)}`)) };
}

/** The outbox rows of `event` whose payload matches (`payload` in `where`): delivered or not, and attempts. */
export async function outboxRows(db: Db, event: string, where: SQL): Promise<Array<{ attempts: number; delivered: boolean }>> {
  const { rows } = await db.execute<{ attempts: number; delivered: boolean }>(sql`
    select attempts, delivered_at is not null as delivered from event_outbox where event = ${event} and (${where}) order by id`);
  return rows;
}

/**
 * Those rows due again now, as undelivered: after a claimer's lease ran out, or (a delivered row) as a
 * second delivery of the same event.
 */
export async function dueAgain(db: Db, event: string, where: SQL): Promise<void> {
  await db.execute(sql`update event_outbox set delivered_at = null, available_at = now() where event = ${event} and (${where})`);
}

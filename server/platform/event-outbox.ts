/**
 * The event outbox: a domain event that must follow a commit (a notice of a failed renewal) is written as a
 * row in that same transaction, so a kill between the commit and the handlers loses nothing. The writer wakes
 * delivery on its own instance after the commit; the workers' job (decision 0051) delivers whatever else is
 * due (what failed, what a dead instance left). Delivery claims due rows (skip-locked, under a lease), runs
 * the event's handlers and marks them delivered; a row whose handlers failed, or whose claimer died, is
 * claimed again after its lease, with a longer one each time. Delivery is at least once: handlers of outbox
 * events must be idempotent (a key of their own). Payloads are stored as JSON: numbers, strings, booleans,
 * null, arrays and objects of them.
 */
import { sql } from 'drizzle-orm';
import type { Db, Executor } from './db/client';
import { eventOutbox } from './db/platform-tables';
import type { DomainEventHub, DomainEventName, DomainEvents } from './events';
import { createDrain } from './jobs/drain';
import type { Job } from './jobs/scheduler';

const BATCH = 100;
/** How long a claimed row is held before another claim may take it; doubled per attempt, up to a day. */
const LEASE_SECONDS = 30;
const MAX_LEASE_SECONDS = 86_400;
/** Delivered rows are kept this long (to see what was delivered), then purged. */
const KEEP_DELIVERED_HOURS = 24;

type PayloadOf<E extends DomainEventName> = DomainEvents[E] extends [infer P] ? P : never;

export interface EventOutbox {
  /** Writes `event` inside the caller's transaction; its handlers run after the commit (call `wake()` then). */
  write<E extends DomainEventName>(tx: Executor, event: E, payload: PayloadOf<E>): Promise<void>;
  /** Delivers what is due on this instance now rather than at the next tick. */
  wake(): void;
  /** Claims and delivers one batch; answers whether it found any. */
  deliverBatch(): Promise<boolean>;
  jobs: Job[];
}

export function createEventOutbox(deps: { db: Db; events: DomainEventHub; log: { warn(obj: object, msg: string): void }; everyMs?: number }): EventOutbox {
  const { db, events } = deps;

  async function deliverBatch(): Promise<boolean> {
    const { rows } = await db.execute<{ id: number; event: DomainEventName; payload: unknown; attempts: number }>(sql`
      update ${eventOutbox} o set attempts = o.attempts + 1,
        available_at = now() + make_interval(secs => least(${LEASE_SECONDS} * power(2, o.attempts), ${MAX_LEASE_SECONDS}))
      where o.id in (
        select id from ${eventOutbox} where delivered_at is null and available_at <= now()
        order by available_at, id limit ${BATCH} for update skip locked)
      returning o.id, o.event, o.payload, o.attempts`);
    const delivered: number[] = [];
    for (const row of rows) {
      const failures = await events.emitCounted(row.event, ...([row.payload] as never));
      if (failures === 0) delivered.push(Number(row.id));
      else deps.log.warn({ outboxId: row.id, event: row.event, attempts: row.attempts }, 'outbox event handlers failed; delivered again after its lease');
    }
    if (delivered.length > 0) {
      await db.execute(sql`update ${eventOutbox} set delivered_at = now() where id = any(${`{${delivered.join(',')}}`}::bigint[])`);
    }
    return rows.length === BATCH;
  }

  const drain = createDrain(deliverBatch, (error) => deps.log.warn({ err: error }, 'outbox delivery failed'));

  return {
    async write(tx, event, payload) {
      await tx.insert(eventOutbox).values({ event, payload: payload as object });
    },
    wake: drain.wake,
    deliverBatch,
    jobs: [
      { name: 'event-outbox', everyMs: deps.everyMs ?? 2_000, roles: ['worker'], run: drain.run },
      {
        name: 'event-outbox-purge',
        everyMs: 60 * 60_000,
        roles: ['worker'],
        run: async () => void (await db.execute(sql`delete from ${eventOutbox} where delivered_at < now() - make_interval(hours => ${KEEP_DELIVERED_HOURS})`)),
      },
    ],
  };
}

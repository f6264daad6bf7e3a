/**
 * The event outbox (decision 0052): a domain event whose loss matters (a tip's notice, a deleted account's
 * clean-up) is written as a row in the transaction of its change, so a kill between the commit and the
 * handlers loses nothing. After the commit the writer calls `afterCommit`: the event's immediate handlers
 * run then (realtime frames) and delivery on its own instance is woken; the workers' job (decision 0051)
 * delivers whatever else is due (what failed, what a dead instance left). Delivery claims due rows
 * (skip-locked, under a lease), runs their durable handlers (`onDurable`) row by row, and marks them delivered; a row
 * whose handlers failed, or whose claimer died, is claimed again after its lease, with a longer one each
 * time. Delivery is at least once: durable handlers must be idempotent (a key of their own). Payloads are
 * stored as JSON: numbers, strings, booleans, null, arrays and objects of them (a time is an ISO string).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from './db/client';
import { eventOutbox } from './db/platform-tables';
import type { DomainEventHub, DomainEventName, DomainEvents } from './events';
import { createDrain } from './jobs/drain';
import type { Job } from './jobs/scheduler';
import { integerArray } from './db/arrays';

const BATCH = 100;
/** How long a claimed row is held before another claim may take it; doubled per attempt, up to a day. */
const LEASE_SECONDS = 30;
const MAX_LEASE_SECONDS = 86_400;
/** Delivered rows are kept this long (to see what was delivered), then purged. */
const KEEP_DELIVERED_HOURS = 24;
/**
 * After a commit, delivery waits this long for the other events of its burst: one claim and one mark for
 * a burst of tips rather than one each (the immediate handlers, the TIP frame among them, do not wait).
 */
export const GATHER_MS = 50;

type PayloadOf<E extends DomainEventName> = DomainEvents[E] extends [infer P] ? P : never;

export interface EventOutbox {
  /** Writes `event` inside the caller's transaction; its handlers run after the commit (call `afterCommit` then). */
  write<E extends DomainEventName>(tx: Executor, event: E, payload: PayloadOf<E>): Promise<void>;
  /**
   * The write as SQL, for a statement of the caller's own (a data-modifying CTE, when the change is one
   * statement): `payloads` is a query answering one jsonb column `payload` per event to write.
   */
  insertSql(event: DomainEventName, payloads: SQL): SQL;
  /** After the commit of a write: the event's immediate handlers run now, its durable ones within moments. */
  afterCommit<E extends DomainEventName>(event: E, payload: PayloadOf<E>): Promise<void>;
  /** Delivers what is due on this instance now rather than at the next tick. */
  wake(): void;
  /** Claims and delivers one batch; answers whether there may be more. */
  deliverBatch(): Promise<boolean>;
  /** Delivers on this instance until nothing is due (with a delivery already running here: waits for it too). */
  deliverDue(): Promise<void>;
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
    // One after another: handlers that check before they write (a new follower's notice, once an hour) see
    // what the previous row wrote.
    for (const row of rows) {
      const failures = await events.deliver(row.event, ...([row.payload] as never));
      if (failures === 0) delivered.push(Number(row.id));
      else deps.log.warn({ outboxId: row.id, event: row.event, attempts: row.attempts }, 'outbox event handlers failed; delivered again after its lease');
    }
    if (delivered.length > 0) {
      await db.execute(sql`update ${eventOutbox} set delivered_at = now() where id = any(${integerArray(delivered)}::bigint[])`);
    }
    return rows.length === BATCH;
  }

  const drain = createDrain(deliverBatch, (error) => deps.log.warn({ err: error }, 'outbox delivery failed'));
  let gathering = false;
  function wakeSoon() {
    if (gathering) return;
    gathering = true;
    setTimeout(() => {
      gathering = false;
      drain.wake();
    }, GATHER_MS).unref();
  }

  return {
    async write(tx, event, payload) {
      await tx.insert(eventOutbox).values({ event, payload: payload as object });
    },
    insertSql: (event, payloads) => sql`insert into ${eventOutbox} (event, payload) select ${event}, e.payload from (${payloads}) e`,
    async afterCommit(event, payload) {
      wakeSoon();
      await events.emit(event, ...([payload] as never));
    },
    wake: drain.wake,
    deliverBatch,
    deliverDue: drain.run,
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

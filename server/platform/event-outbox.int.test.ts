/** The event outbox: written with the change or not at all, handled after the commit at least once. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../testing/databases';
import { openDatabase, type Database } from './db/client';
import { eventOutbox } from './db/platform-tables';
import { createEventOutbox, GATHER_MS } from './event-outbox';
import { createDomainEventHub } from './events';

declare module './events' {
  interface DomainEvents {
    'outbox-probe.happened': [{ n: number }];
  }
}

// A database of its own and no app: an app's delivery job would claim the probes too.
let fresh: FreshDatabase;
let database: Database;
beforeAll(async () => {
  fresh = await freshDatabase(inject('dbTemplate'));
  database = await openDatabase(fresh.target);
});
afterAll(async () => {
  await database.close();
  await fresh.dispose();
});

const quiet = { warn: () => {}, error: () => {} };
const db = () => database.db;

/** An outbox with a handler that records what it saw. */
function probeOutbox(handle: (n: number) => void) {
  const events = createDomainEventHub(quiet);
  events.onDurable('outbox-probe.happened', ({ n }) => handle(n));
  return createEventOutbox({ db: db(), events, log: quiet });
}

const probeRows = async (n: number) =>
  (await db().execute<{ attempts: number; delivered: boolean }>(sql`select attempts, delivered_at is not null as delivered from ${eventOutbox}
    where event = 'outbox-probe.happened' and (payload->>'n')::int = ${n}`)).rows;

describe('the event outbox', () => {
  it('keeps nothing of a transaction that rolled back, and hands over what committed once delivered', async () => {
    const seen: number[] = [];
    const outbox = probeOutbox((n) => void seen.push(n));
    await db().transaction(async (tx) => {
      await outbox.write(tx, 'outbox-probe.happened', { n: 1 });
      tx.rollback();
    }).catch(() => undefined);
    await db().transaction((tx) => outbox.write(tx, 'outbox-probe.happened', { n: 2 }));
    // Written, not yet handled: a process killed here leaves the row for any instance's delivery job.
    expect(await probeRows(2)).toEqual([{ attempts: 0, delivered: false }]);
    while (await outbox.deliverBatch()) {
      // until nothing is due
    }
    expect(seen.filter((n) => n === 1 || n === 2)).toEqual([2]);
    expect(await probeRows(1)).toEqual([]);
    expect(await probeRows(2)).toEqual([{ attempts: 1, delivered: true }]);
    await outbox.deliverBatch();
    expect(seen.filter((n) => n === 2)).toEqual([2]);
  });

  it('delivers again after its lease an event whose handler failed, or whose claimer died', async () => {
    let failNext = true;
    const seen: number[] = [];
    const outbox = probeOutbox((n) => {
      if (n !== 3) return;
      if (failNext) {
        failNext = false;
        throw new Error('handler down');
      }
      seen.push(n);
    });
    await db().transaction((tx) => outbox.write(tx, 'outbox-probe.happened', { n: 3 }));
    await outbox.deliverBatch();
    expect(await probeRows(3)).toEqual([{ attempts: 1, delivered: false }]);
    // Within the lease nobody takes it again.
    await outbox.deliverBatch();
    expect(seen).toEqual([]);
    // The lease over (as after a claimer's kill -9): claimed and handled.
    await db().execute(sql`update ${eventOutbox} set available_at = now() where event = 'outbox-probe.happened' and (payload->>'n')::int = 3`);
    await outbox.deliverBatch();
    expect(seen).toEqual([3]);
    expect(await probeRows(3)).toEqual([{ attempts: 2, delivered: true }]);
  });

  it('is written by a statement of the caller\'s own; after the commit its immediate handlers run at once, its durable ones once delivered', async () => {
    const events = createDomainEventHub(quiet);
    const frames: number[] = [];
    const notices: number[] = [];
    events.on('outbox-probe.happened', ({ n }) => void frames.push(n));
    events.onDurable('outbox-probe.happened', ({ n }) => void notices.push(n));
    const outbox = createEventOutbox({ db: db(), events, log: quiet });
    await db().execute(sql`with written as (${outbox.insertSql('outbox-probe.happened', sql`select jsonb_build_object('n', g) as payload from generate_series(4, 5) g`)}) select 1`);
    expect([...(await probeRows(4)), ...(await probeRows(5))]).toEqual([{ attempts: 0, delivered: false }, { attempts: 0, delivered: false }]);
    await outbox.afterCommit('outbox-probe.happened', { n: 4 });
    expect(frames).toEqual([4]);
    await outbox.deliverDue();
    expect(notices.sort()).toEqual([4, 5]);
    expect(frames).toEqual([4]);
    expect(await probeRows(4)).toEqual([{ attempts: 1, delivered: true }]);
    // The commit's gathered wake is still due: let it fire and finish, or it claims the next test's rows for this hub.
    await new Promise((resolve) => setTimeout(resolve, GATHER_MS * 2));
    await outbox.deliverDue();
  });

  it('gives each due event to one of two instances delivering at once', async () => {
    const seen: number[] = [];
    const first = probeOutbox((n) => void seen.push(n));
    const second = probeOutbox((n) => void seen.push(n));
    await db().transaction(async (tx) => {
      for (let n = 100; n < 160; n++) await first.write(tx, 'outbox-probe.happened', { n });
    });
    await Promise.all([first.deliverBatch(), second.deliverBatch(), first.deliverBatch(), second.deliverBatch()]);
    const mine = seen.filter((n) => n >= 100 && n < 160);
    expect(mine.length).toBe(60);
    expect(new Set(mine).size).toBe(60);
  });
});

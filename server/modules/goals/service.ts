/**
 * Tip goals (decision 0079): the broadcaster queues goals; coins tipped on the stream fill the active one,
 * counted from the ledger (the stream's tipped total less the goal's base), so counting again after a
 * redelivered tip or a second instance changes nothing. Reaching a goal starts the next with what went
 * past. Every change of a stream's goals runs under that stream's advisory lock, and is published as GOAL.
 */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { StreamGoal } from '../../../common/api/goals';
import type { GoalInput } from '../../../common/api/goals';
import { MSG } from '../../../common/messages';
import type { RealtimeMessage } from '../../../common/realtime';
import { lockForTransaction } from '../../platform/db/advisory-lock';
import type { Db, Tx } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { conflict } from '../../platform/http/errors';
import { tippedOnStreamSql } from '../ledger';
import type { StreamAccess, StreamReads, Viewer } from '../streams';
import { streamGoals } from './tables';

type GoalRow = typeof streamGoals.$inferSelect;

export function toGoal(row: GoalRow): StreamGoal {
  return {
    goal_id: row.id,
    position: row.position,
    amount: row.amount,
    raised: row.reachedAt ? row.amount : row.raised,
    description: row.description,
    state: row.reachedAt ? 'reached' : row.startedAt ? 'active' : 'queued',
    reached_time: row.reachedAt?.toISOString() ?? null,
  };
}

/** What counting a stream's goals changed: the active goal now, and those it reached. */
interface Counted {
  active: GoalRow | null;
  reached: GoalRow[];
  changed: boolean;
}

export function createGoalsService(deps: {
  db: Db;
  streamReads: Pick<StreamReads, 'ownStream'>;
  streamAccess: Pick<StreamAccess, 'lookup'>;
  publishToStream: (streamId: number, message: RealtimeMessage) => Promise<void>;
}) {
  const { db } = deps;

  const openGoals = (exec: Db | Tx, streamId: number) =>
    exec.select().from(streamGoals)
      .where(and(eq(streamGoals.streamId, streamId), isNull(streamGoals.reachedAt), isNull(streamGoals.removedAt)))
      .orderBy(asc(streamGoals.position));

  async function tippedOn(tx: Tx, streamId: number): Promise<number> {
    const [row] = await tx.select({ total: sql<string | number>`(${tippedOnStreamSql(streamId)})` }).from(sql`(select 1) as one`);
    return Number(row?.total ?? 0);
  }

  const lockGoals = (tx: Tx, streamId: number) => lockForTransaction(tx, `goals:${streamId}`);

  async function update(tx: Tx, id: number, set: Partial<GoalRow>): Promise<GoalRow> {
    const [row] = await tx.update(streamGoals).set(set).where(eq(streamGoals.id, id)).returning();
    if (!row) throw new Error(`goal ${id} vanished under its stream's lock`);
    return row;
  }

  /** Brings the open goals up to the stream's tipped total: reaches what it covers, starts the next, saves what is raised. */
  async function count(tx: Tx, streamId: number, tipped: number): Promise<Counted> {
    const open = await openGoals(tx, streamId);
    const reached: GoalRow[] = [];
    let changed = false;
    // What went past a reached goal counts towards the next: its base is the reached one's base plus its amount.
    let carried: number | null = null;
    for (let goal of open) {
      if (goal.base === null) {
        // The first open goal is always started; a queued one starts here when the one before it is reached.
        goal = await update(tx, goal.id, { base: carried ?? tipped, startedAt: new Date() });
        changed = true;
      }
      const base = goal.base!;
      const raised = Math.max(0, tipped - base);
      if (raised < goal.amount) {
        if (raised !== goal.raised) {
          goal = await update(tx, goal.id, { raised });
          changed = true;
        }
        return { active: goal, reached, changed };
      }
      reached.push(await update(tx, goal.id, { raised: goal.amount, reachedAt: new Date() }));
      changed = true;
      carried = base + goal.amount;
    }
    return { active: null, reached, changed };
  }

  async function publish(streamId: number, counted: Counted) {
    await deps.publishToStream(streamId, {
      type: 'GOAL',
      data: { stream_id: streamId, goal: counted.active ? toGoal(counted.active) : null, reached: counted.reached.map(toGoal) },
    });
  }

  async function list(streamId: number): Promise<StreamGoal[]> {
    const rows = await db.select().from(streamGoals)
      .where(and(eq(streamGoals.streamId, streamId), isNull(streamGoals.removedAt))).orderBy(asc(streamGoals.position));
    return rows.map(toGoal);
  }

  return {
    /** The broadcast's goals, for whoever may see the stream. */
    async goalsOf(streamId: number, viewer: Viewer) {
      const row = await deps.streamAccess.lookup(streamId, viewer);
      return list(row.id);
    },

    /** The active goal as the stream info carries it. */
    async activeGoal(streamId: number): Promise<StreamGoal | null> {
      const [row] = await openGoals(db, streamId).limit(1);
      return row?.startedAt ? toGoal(row) : null;
    },

    /**
     * The owner replaces the goals not reached yet (none: no goal). The first new one becomes active with
     * the active one's base, so what was raised towards the goal being changed stays raised.
     */
    async save(principal: Principal, streamId: number, goals: GoalInput[]) {
      const stream = await deps.streamReads.ownStream(streamId, principal);
      if (stream.endedAt !== null) throw conflict(MSG.goalsOfEndedStream);
      const counted = await db.transaction(async (tx) => {
        await lockGoals(tx, streamId);
        const open = await openGoals(tx, streamId);
        const tipped = await tippedOn(tx, streamId);
        const carried = open[0]?.base ?? tipped;
        if (open.length > 0) {
          await tx.update(streamGoals).set({ removedAt: new Date() })
            .where(sql`${streamGoals.id} in (${sql.join(open.map((g) => sql`${g.id}`), sql`, `)})`);
        }
        const [last] = await tx.select({ position: sql<number>`coalesce(max(${streamGoals.position}), 0)` }).from(streamGoals).where(eq(streamGoals.streamId, streamId));
        if (goals.length > 0) {
          await tx.insert(streamGoals).values(goals.map((goal, i) => ({
            streamId, position: (last?.position ?? 0) + i + 1, amount: goal.amount, description: goal.description,
            ...(i === 0 ? { base: carried, startedAt: new Date() } : {}),
          })));
        }
        return count(tx, streamId, tipped);
      });
      await publish(streamId, counted);
      return list(streamId);
    },

    /** Per stream, its goals set (not removed) and reached: the creator analytics' top streams. */
    async goalCounts(streamIds: number[]): Promise<Map<number, { set: number; reached: number }>> {
      if (streamIds.length === 0) return new Map();
      const rows = await db.select({
        streamId: streamGoals.streamId,
        set: sql<number>`count(*)::int`,
        reached: sql<number>`(count(*) filter (where ${streamGoals.reachedAt} is not null))::int`,
      }).from(streamGoals).where(and(inArray(streamGoals.streamId, streamIds), isNull(streamGoals.removedAt))).groupBy(streamGoals.streamId);
      return new Map(rows.map((row) => [row.streamId, { set: row.set, reached: row.reached }]));
    },

    /** After a tip on the stream (the event outbox: at least once, on any instance): counts its goals again. */
    async tipped(streamId: number) {
      const [open] = await openGoals(db, streamId).limit(1);
      if (!open) return;
      const counted = await db.transaction(async (tx) => {
        await lockGoals(tx, streamId);
        return count(tx, streamId, await tippedOn(tx, streamId));
      });
      if (counted.changed) await publish(streamId, counted);
    },
  };
}

export type GoalsService = ReturnType<typeof createGoalsService>;

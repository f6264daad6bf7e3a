/**
 * Who is on each realtime channel (a stream's viewers), agreed by every instance: each instance
 * counts its own members and writes the count to `realtime_presence` shortly after it changes and
 * on a heartbeat; the sum over rows refreshed recently is the channel's count. A crashed instance's
 * rows stop counting once they are stale.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { realtimePresence } from '../db/platform-tables';

export const PRESENCE_STALE_SECONDS = 30;
/** How many signed-in members' ids an instance lists per channel (the count has everyone). */
export const PRESENCE_LISTED_USERS = 500;

export interface PresenceOptions {
  /** How soon a change is written (changes inside the window are written together). */
  flushMs?: number;
  heartbeatMs?: number;
  /** Called with the channels whose local count was just written, so their new totals can be told. */
  onWritten?: (channels: string[]) => void;
  /** The user id a member key stands for, or null for a visitor's key (listed: signed-in members only). */
  userIdOf?: (member: string) => number | null;
}

/** SQL for the members of the channel named by `channel` (an SQL text expression), for listings. */
export const channelMembersSql = (channel: SQL) =>
  sql<number>`(select coalesce(sum(${realtimePresence.members}), 0)::int from ${realtimePresence}
    where ${realtimePresence.channel} = ${channel}
    and ${realtimePresence.updatedAt} > now() - make_interval(secs => ${PRESENCE_STALE_SECONDS}))`;

export function createPresence(db: Db, log: { warn(obj: object, msg: string): void }, options: PresenceOptions = {}) {
  const instanceId = randomUUID();
  const flushMs = options.flushMs ?? 500;
  /** channel → member key → sockets of that member on this instance. */
  const local = new Map<string, Map<string, number>>();
  const dirty = new Set<string>();
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();

  const listedUserIds = (keys: Iterable<string>): number[] => {
    const ids: number[] = [];
    for (const key of keys) {
      const id = options.userIdOf?.(key) ?? null;
      if (id !== null) ids.push(id);
      if (ids.length === PRESENCE_LISTED_USERS) break;
    }
    return ids;
  };

  async function write(channels: string[]) {
    for (const channel of channels) {
      const here = local.get(channel);
      const members = here?.size ?? 0;
      if (!here || members === 0) {
        await db.delete(realtimePresence).where(and(eq(realtimePresence.channel, channel), eq(realtimePresence.instanceId, instanceId)));
        continue;
      }
      const userIds = listedUserIds(here.keys());
      await db.insert(realtimePresence).values({ channel, instanceId, members, userIds })
        .onConflictDoUpdate({ target: [realtimePresence.channel, realtimePresence.instanceId], set: { members, userIds, updatedAt: sql`now()` } });
    }
  }

  function flushSoon() {
    if (flushTimer) return;
    flushTimer = setTimeout(() => {
      flushTimer = null;
      const channels = [...dirty];
      dirty.clear();
      flushing = flushing.then(async () => {
        await write(channels);
        options.onWritten?.(channels);
      }).catch((error: unknown) => {
        for (const channel of channels) dirty.add(channel);
        log.warn({ err: error }, 'presence could not be written; trying again');
        flushSoon();
      });
    }, flushMs);
    flushTimer.unref();
  }

  // Every local count is written again, so rows another instance purged (after an outage) come back.
  const heartbeat = setInterval(() => {
    flushing = flushing
      .then(async () => {
        await write([...local.keys()]);
        await db.delete(realtimePresence).where(lt(realtimePresence.updatedAt, sql`now() - make_interval(secs => ${PRESENCE_STALE_SECONDS * 2})`));
      })
      .catch((error: unknown) => log.warn({ err: error }, 'presence heartbeat failed'));
  }, options.heartbeatMs ?? 10_000);
  heartbeat.unref();

  return {
    instanceId,
    /** Adds a socket of `member`; answers true when the member was not on the channel here before. */
    join(channel: string, member: string): boolean {
      let members = local.get(channel);
      if (!members) local.set(channel, (members = new Map()));
      const sockets = members.get(member) ?? 0;
      members.set(member, sockets + 1);
      if (sockets === 0) {
        dirty.add(channel);
        flushSoon();
      }
      return sockets === 0;
    },
    /** Removes a socket of `member`; answers true when it was the member's last one here. */
    leave(channel: string, member: string): boolean {
      const members = local.get(channel);
      const sockets = members?.get(member) ?? 0;
      if (!members || sockets === 0) return false;
      if (sockets > 1) {
        members.set(member, sockets - 1);
        return false;
      }
      members.delete(member);
      if (members.size === 0) local.delete(channel);
      dirty.add(channel);
      flushSoon();
      return true;
    },
    /** Members of the channel on every instance, as last written. */
    async count(channel: string): Promise<number> {
      const [row] = await db.select({ n: sql<number>`coalesce(sum(${realtimePresence.members}), 0)::int` }).from(realtimePresence)
        .where(and(eq(realtimePresence.channel, channel), gt(realtimePresence.updatedAt, sql`now() - make_interval(secs => ${PRESENCE_STALE_SECONDS})`)));
      return row?.n ?? 0;
    },
    /** The signed-in members of the channel on every instance, as last written (up to PRESENCE_LISTED_USERS per instance). */
    async userIds(channel: string): Promise<number[]> {
      const rows = await db.select({ ids: realtimePresence.userIds }).from(realtimePresence)
        .where(and(eq(realtimePresence.channel, channel), gt(realtimePresence.updatedAt, sql`now() - make_interval(secs => ${PRESENCE_STALE_SECONDS})`)));
      return [...new Set(rows.flatMap((row) => row.ids))];
    },
    async close() {
      clearInterval(heartbeat);
      if (flushTimer) clearTimeout(flushTimer);
      await flushing;
      await db.delete(realtimePresence).where(eq(realtimePresence.instanceId, instanceId));
    },
  };
}

export type Presence = ReturnType<typeof createPresence>;

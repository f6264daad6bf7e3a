/**
 * The audit log's one writer (the table: `audit_log` in platform-tables.ts, append-only by trigger).
 * Modules and the command line record each moderator or administrator action here, inside the
 * transaction of the change where they have one (pass `tx`).
 */
import { desc, eq, lt, sql } from 'drizzle-orm';
import type { AuditAction, AuditTargetType } from '../../../common/console';
import type { Db } from '../db/client';
import { auditLog } from '../db/platform-tables';

type Writer = Pick<Db, 'insert'>;

export interface AuditEntry {
  /** Who acted; null for the command line. */
  actorId: number | null;
  action: AuditAction;
  targetType: AuditTargetType;
  targetId: number | string;
  before?: unknown;
  after?: unknown;
}

export async function recordAudit(exec: Writer, entry: AuditEntry): Promise<void> {
  await exec.insert(auditLog).values({
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: String(entry.targetId),
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/** Newest first, a page at a time (`before`: the last id of the previous page). */
export async function readAudit(db: Db, page: { before?: number | undefined; limit: number; targetType?: string | undefined; targetId?: string | undefined }) {
  const conditions = [
    page.before !== undefined ? lt(auditLog.id, page.before) : undefined,
    page.targetType !== undefined ? eq(auditLog.targetType, page.targetType) : undefined,
    page.targetId !== undefined ? eq(auditLog.targetId, page.targetId) : undefined,
  ].filter((c) => c !== undefined);
  return db.select().from(auditLog)
    .where(conditions.length > 0 ? sql.join(conditions, sql` and `) : undefined)
    .orderBy(desc(auditLog.id)).limit(page.limit);
}

/**
 * The reports queue: the stream, post, comment and direct message reports (their modules' read models, one union), each
 * with its reporter, the item's owner and preview, and who handled it. Acting on a report acts on its
 * item through the item's module and closes the item's open reports (`report_handlings`).
 */
import { sql } from 'drizzle-orm';
import { ACTIONS_FOR, mayTakeAction, type ReportAction, type ReportKind } from '../../../common/console';
import type { ConsoleReport } from '../../../common/api/console';
import { fill, MSG } from '../../../common/messages';
import { shownTitle } from '../../../common/rules/stream-display';
import { recordAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { badRequest, forbidden, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { directMessageReportsSql, type MessageModeration } from '../messages';
import { commentReportsSql, postReportsSql, type PostModeration } from '../posts';
import { streamReportsSql, type StreamModeration } from '../streams';
import { reportHandlings } from './tables';

const STREAM_EVENT: Partial<Record<ReportAction, 'END_STREAM' | 'DELETE_STREAM' | 'HIDE_STREAM' | 'SUSPEND_USER'>> = {
  END_STREAM: 'END_STREAM', DELETE: 'DELETE_STREAM', HIDE: 'HIDE_STREAM', SUSPEND_USER: 'SUSPEND_USER',
};

interface Row extends Record<string, unknown> {
  kind: ReportKind; item_id: string | number; reporter_id: string | number; type: string; comment: string;
  created_at: string | Date; owner_id: string | number; preview: string; image: string | null; item_state: string;
  handled_at: string | Date | null; resolution: ReportAction | null; handled_by: string | number | null;
}

const iso = (value: string | Date) => new Date(value).toISOString();

export function createReportsQueue(deps: { db: Db; accounts: AccountsService; streamModeration: StreamModeration; postModeration: PostModeration; messageModeration: MessageModeration }) {
  const { db } = deps;

  /** Every report with the latest handling of its item made after it (none: open). */
  const queue = sql`(select r.*, h.handled_at, h.resolution, h.handled_by
      from (${streamReportsSql} union all ${postReportsSql} union all ${commentReportsSql} union all ${directMessageReportsSql}) r
      left join lateral (select h.handled_at, h.resolution, h.handled_by from ${reportHandlings} h
        where h.kind = r.kind and h.item_id = r.item_id and h.handled_at >= r.created_at order by h.handled_at desc limit 1) h on true)`;

  /** How many reports the item has, and how many of them are open. */
  async function reportsOf(kind: ReportKind, itemId: number): Promise<{ all: number; open: number }> {
    const { rows } = await db.execute<{ all: number; open: number }>(sql`select count(*)::int as all, (count(*) filter (where q.handled_at is null))::int as open
      from ${queue} q where q.kind = ${kind} and q.item_id = ${itemId}`);
    return { all: Number(rows[0]?.all ?? 0), open: Number(rows[0]?.open ?? 0) };
  }

  return {
    async list(input: { status: 'open' | 'handled'; offset: number; limit: number }): Promise<{ reports: ConsoleReport[]; total: number }> {
      const handled = input.status === 'handled' ? sql`q.handled_at is not null` : sql`q.handled_at is null`;
      const [{ rows }, counted] = await Promise.all([
        db.execute<Row>(sql`select q.* from ${queue} q where ${handled}
          order by ${input.status === 'handled' ? sql`q.handled_at desc,` : sql``} q.created_at desc, q.kind, q.item_id, q.reporter_id
          offset ${input.offset} limit ${input.limit}`),
        db.execute<{ total: number }>(sql`select count(*)::int as total from ${queue} q where ${handled}`),
      ]);
      const names = await deps.accounts.publicUsers([...new Set(rows.flatMap((r) => [r.reporter_id, r.owner_id, r.handled_by]).filter((id) => id !== null).map(Number))]);
      const nameOf = (id: string | number) => names.get(Number(id))?.username ?? '';
      return {
        total: Number(counted.rows[0]?.total ?? 0),
        reports: rows.map((r) => ({
          kind: r.kind,
          item_id: Number(r.item_id),
          reporter: { user_id: Number(r.reporter_id), username: nameOf(r.reporter_id) },
          type: r.type,
          comment: r.comment,
          created_at: iso(r.created_at),
          owner: { user_id: Number(r.owner_id), username: nameOf(r.owner_id) },
          // A stream's title as people read it: the search tag stays out of sight.
          preview: r.kind === 'stream' ? shownTitle(r.preview) : r.preview,
          image: r.image,
          item_state: r.item_state as ConsoleReport['item_state'],
          handled: r.handled_at && r.resolution && r.handled_by !== null
            ? { by: { user_id: Number(r.handled_by), username: nameOf(r.handled_by) }, at: iso(r.handled_at), resolution: r.resolution }
            : null,
        })),
      };
    },

    /** Reports made against the user's streams, posts and comments (the user view's count). */
    async countAgainst(userId: number): Promise<number> {
      const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int as n from ${queue} q where q.owner_id = ${userId}`);
      return Number(rows[0]?.n ?? 0);
    },

    /**
     * Takes the action on a reported item (open or handled before: End Stream, then Suspend User) and
     * closes its open reports; answers how many were closed.
     */
    async act(principal: Principal, input: { kind: ReportKind; item_id: number; action: ReportAction }): Promise<number> {
      if (!mayTakeAction(principal, input.action, input.kind)) throw forbidden();
      if (!ACTIONS_FOR[input.kind].includes(input.action)) throw badRequest(fill(MSG.actionNotForReport, { kind: input.kind }), 'action');
      const { all, open } = await reportsOf(input.kind, input.item_id);
      if (all === 0) throw notFound(MSG.noSuchReport);
      const streamEvent = STREAM_EVENT[input.action];
      const handling = { kind: input.kind, itemId: input.item_id, resolution: input.action, handledBy: principal.userId };
      if (input.action === 'DISMISS') {
        // Dismissing changes nothing but the reports: their handling and its audit entry, together.
        await db.transaction(async (tx) => {
          await recordAudit(tx, {
            actorId: principal.userId, action: 'report.dismiss', targetType: input.kind, targetId: input.item_id,
            before: { open_reports: open }, after: { open_reports: 0, resolution: 'DISMISS' },
          });
          await tx.insert(reportHandlings).values(handling);
        });
        return open;
      }
      if (input.kind === 'stream' && streamEvent) {
        await deps.streamModeration.act(principal, [input.item_id], streamEvent, undefined);
      } else if (input.action === 'DELETE') {
        if (input.kind === 'post') await deps.postModeration.deletePost(principal.userId, input.item_id);
        else if (input.kind === 'direct-message') await deps.messageModeration.deleteMessage(principal.userId, input.item_id);
        else await deps.postModeration.deleteComment(principal.userId, input.item_id);
      } else if (input.action === 'SUSPEND_USER') {
        const { rows } = await db.execute<{ owner_id: number }>(sql`select q.owner_id from ${queue} q where q.kind = ${input.kind} and q.item_id = ${input.item_id} limit 1`);
        await deps.streamModeration.suspendOwner(principal.userId, Number(rows[0]!.owner_id));
      }
      // A handling a moment after the reports it closes (a report made in the same instant stays closed too).
      await db.insert(reportHandlings).values(handling);
      return open;
    },
  };
}

export type ReportsQueue = ReturnType<typeof createReportsQueue>;

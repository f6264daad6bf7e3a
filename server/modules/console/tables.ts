import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { userRef } from '../accounts/tables';
import { REPORT_KINDS, REPORT_RESOLUTIONS } from '../../../common/console';

/**
 * How the reports of one item were handled: each row closes the item's reports made before `handled_at`
 * (a report made later opens the item again). The report tables stay their modules'; the queue reads
 * them through their read models and this table says who handled what.
 */
export const reportHandlings = pgTable(
  'report_handlings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: REPORT_KINDS }).notNull(),
    itemId: bigint('item_id', { mode: 'number' }).notNull(),
    resolution: text('resolution', { enum: REPORT_RESOLUTIONS }).notNull(),
    handledBy: userRef('handled_by'),
    handledAt: timestamp('handled_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('report_handlings_item_idx').on(t.kind, t.itemId, t.handledAt)],
);

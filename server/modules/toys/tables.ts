import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { BROADCASTER_STATES, TOY_ACCESS_STATES, TOY_ROOMS, VIEWER_STATES, type Toy } from '../../../common/api/toys';
import { userRef } from '../accounts/tables';

/**
 * One device-access record per (room, stream, viewer) (spec part 2 §3): the access the broadcaster
 * offered that viewer, what each side's page shows, the tips asked and paid, and the host's QR.
 */
export const toyAccess = pgTable(
  'toy_access',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    room: text('room', { enum: TOY_ROOMS }).notNull(),
    /** A stream's id, or a meeting's (room 'meeting'): no foreign key, the room decides which table. */
    streamId: bigint('stream_id', { mode: 'number' }).notNull(),
    broadcasterId: userRef('broadcaster_id'),
    viewerId: userRef('viewer_id'),
    access: text('access', { enum: TOY_ACCESS_STATES }).notNull(),
    broadcasterState: text('broadcaster_state', { enum: BROADCASTER_STATES }).notNull().default('NONE'),
    viewerState: text('viewer_state', { enum: VIEWER_STATES }).notNull().default('NONE'),
    /** The access tip asked (coins, 10–2000). */
    tipAmount: integer('tip_amount').notNull(),
    /** An extra tip asked by PAID_TIP_REQUEST, 0 when none is pending. */
    requestedTip: integer('requested_tip').notNull().default(0),
    isTipPaid: boolean('is_tip_paid').notNull().default(false),
    paidTotal: integer('paid_total').notNull().default(0),
    /** Tips paid for this record: the ledger key of the next is `toy:<id>:payment:<payments + 1>`. */
    payments: integer('payments').notNull().default(0),
    /** The Idempotency-Key of the last payment: a retry with it answers the record instead of 409. */
    lastPaymentKey: text('last_payment_key'),
    qr: text('qr'),
    qrCode: text('qr_code'),
    service: text('service').notNull(),
    entryDate: timestamp('entry_date', { withTimezone: true }).notNull().defaultNow(),
    updatedDate: timestamp('updated_date', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('toy_access_viewer_idx').on(t.room, t.streamId, t.viewerId),
    index('toy_access_broadcaster_idx').on(t.broadcasterId, t.access),
    check('toy_access_amounts', sql`${t.tipAmount} >= 0 and ${t.requestedTip} >= 0 and ${t.paidTotal} >= 0`),
  ],
);

/** A host's device as the server knows it: connected or not, and the toys the app (or the virtual toy) reported. */
export const toyDevices = pgTable('toy_devices', {
  userId: userRef('user_id').primaryKey(),
  connected: boolean('connected').notNull().default(false),
  toys: jsonb('toys').$type<Toy[]>().notNull().default([]),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The utoken nonces of Lovense app callbacks already taken (callbacks.ts): a callback is taken once per
 * nonce. Rows older than the callback window are purged (a stale utoken is refused before this table).
 */
export const toyCallbackNonces = pgTable(
  'toy_callback_nonces',
  {
    nonce: text('nonce').primaryKey(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('toy_callback_nonces_used_idx').on(t.usedAt)],
);

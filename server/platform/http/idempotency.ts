/**
 * The Idempotency-Key rule, once for every call that takes a key (decision 0038): a key names one
 * request of its user — the route and the canonical body. Sent again with the same body, the call
 * answers what the first request did (each money path is keyed so that it moves nothing twice); sent
 * with another body, or to another route, it is refused with 409 and nothing moves.
 *
 * Where the first request is remembered: by default in `idempotency_keys`, claimed by the route
 * layer before the handler runs. The tip's hot path cannot pay that round trip (decision 0012), so a
 * route may keep the fingerprint in its own ledger transfer's details instead (`FINGERPRINT_DETAIL`)
 * and compare it with `assertSameRequest` when the ledger answers that the key was used.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { MSG } from '../../../common/messages';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/platform-tables';
import { conflict } from './errors';

/** A request that carries an Idempotency-Key: the key as sent and the fingerprint of what it asks. */
export interface KeyedRequest {
  key: string;
  fingerprint: string;
}

/** The field of a ledger transfer's details that keeps the fingerprint of the request that made it. */
export const FINGERPRINT_DETAIL = 'request_fingerprint';

/** JSON with object keys sorted, so two bodies that say the same thing read the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a keyed request asks, as a digest: its route, its caller and its body as the contract parsed it. */
export function requestFingerprint(route: { method: string; path: string }, userId: number, input: unknown): string {
  return createHash('sha256').update(`${route.method} ${route.path}\n${userId}\n${canonicalJson(input)}`).digest('base64url');
}

/** 409 when the key's first request asked something else; nothing when it is this request (or none was kept). */
export function assertSameRequest(first: unknown, request: KeyedRequest): void {
  if (typeof first === 'string' && first !== request.fingerprint) throw conflict(MSG.idempotencyKeyReused);
}

/** Binds the key to this request the first time it is seen, then holds every later use to it (one statement). */
export async function claimKey(db: Db, userId: number, request: KeyedRequest): Promise<void> {
  const { rows } = await db.execute<{ fingerprint: string }>(sql`
    with claimed as (
      insert into ${idempotencyKeys} (user_id, key, fingerprint) values (${userId}, ${request.key}, ${request.fingerprint})
      on conflict (user_id, key) do nothing
      returning fingerprint
    )
    select fingerprint from claimed
    union all
    select fingerprint from ${idempotencyKeys} where user_id = ${userId} and key = ${request.key} and not exists (select 1 from claimed)`);
  let first = rows[0]?.fingerprint;
  if (first === undefined) {
    // Claimed at the same moment by a request whose commit this statement's snapshot did not see: read it now.
    const [row] = await db.select({ fingerprint: idempotencyKeys.fingerprint }).from(idempotencyKeys)
      .where(sql`${idempotencyKeys.userId} = ${userId} and ${idempotencyKeys.key} = ${request.key}`);
    first = row?.fingerprint;
  }
  assertSameRequest(first, request);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The database the route layer keeps Idempotency-Keys in (installIdempotency). */
    idempotencyDb: Db;
  }
}

/** Gives the route layer the database where keys are claimed. */
export function installIdempotency(app: FastifyInstance, db: Db): void {
  app.decorate('idempotencyDb', db);
}

/**
 * What the fault suite checks after each fault, against the database and the instances: nothing
 * acknowledged lost (stored, and replayed to a viewer coming back), the books sound and conserved, the
 * outbox drained, every instance ready.
 */
import pg from 'pg';
import { conservationViolationsAt, ledgerViolations, violationCount } from '../tip-load';
import type { Load } from './load';
import { replayAfter } from './viewers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `ready` every 100 ms until it holds; answers the milliseconds since `since`, or null at the deadline. */
export async function timeUntil(since: number, ready: () => Promise<boolean> | boolean, timeoutMs = 90_000): Promise<number | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await ready()) return Date.now() - since;
    if (Date.now() > deadline) return null;
    await sleep(100);
  }
}

export const isReady = (base: string) => fetch(`${base}/readyz`, { signal: AbortSignal.timeout(3_000) }).then((r) => r.status === 200).catch(() => false);

export class Books {
  constructor(readonly databaseUrl: string) {}

  async query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  /** The replay cursor of "now": the newest chat line and tip stored. */
  async cursor(streamId: number): Promise<{ comment: string; tip: string }> {
    const [row] = await this.query<{ comment: string; tip: string }>(
      `select coalesce((select max(id) from chat_messages where stream_id = $1), 0)::text as comment,
              coalesce((select max(id) from ledger_transfers where kind = 'tip'), 0)::text as tip`, [streamId]);
    return row!;
  }
}

export interface PhaseCheck {
  problems: string[];
  lines: number;
  tips: number;
}

/**
 * After a fault: every line and tip acknowledged during `phase` is stored and in the history replayed
 * after `cursor`, and every remembering viewer has seen them; the books balance and are conserved; no
 * outbox event waits past its lease; no answer was a 500.
 */
export async function checkPhase(o: { load: Load; books: Books; phase: string | null; streamId: number; cursor: { comment: string; tip: string }; base: string }): Promise<PhaseCheck> {
  const { load, books, phase } = o;
  const problems: string[] = [];
  const lines = [...load.acknowledgedLines].filter(([, p]) => phase === null || p === phase).map(([text]) => text);
  const tips = [...load.acknowledgedTips.values()].filter((tip) => phase === null || tip.phase === phase);

  const stored = new Set((await books.query<{ text: string }>('select text from chat_messages where stream_id = $1 and text = any($2::text[])', [o.streamId, lines])).map((r) => r.text));
  const notStored = lines.filter((text) => !stored.has(text));
  if (notStored.length) problems.push(`${notStored.length} acknowledged chat lines not stored (${notStored.slice(0, 3).join(', ')})`);
  const transfers = new Map((await books.query<{ idempotency_key: string; id: string; amount: string }>(
    `select idempotency_key, id::text, amount::text from ledger_transfers where kind = 'tip' and idempotency_key = any($1::text[])`,
    [tips.map((tip) => `tip:${tip.tipper.userId}:${tip.key}`)],
  )).map((r) => [r.idempotency_key, r]));
  for (const tip of tips) {
    const row = transfers.get(`tip:${tip.tipper.userId}:${tip.key}`);
    if (!row) problems.push(`acknowledged tip ${tip.key} (transfer ${tip.transferId}) not in the books`);
    else if (Number(row.id) !== tip.transferId) problems.push(`tip ${tip.key} answered transfer ${tip.transferId}, the books hold ${row.id}`);
  }

  if (phase !== null) problems.push(...(await checkDelivery(o, lines, tips)));

  const violations = await ledgerViolations(books.databaseUrl);
  if (violationCount(violations) > 0) problems.push(`ledger invariants: ${JSON.stringify(violations)}`);
  problems.push(...(await conservationViolationsAt(books.databaseUrl)).map((v) => `conservation: ${v}`));
  const [overdue] = await books.query<{ n: number }>(`select count(*)::int as n from event_outbox where delivered_at is null and available_at < now() - interval '60 seconds'`);
  if (overdue!.n > 0) problems.push(`${overdue!.n} outbox events undelivered past their lease`);
  problems.push(...load.serverErrors().map((e) => `server error answered: ${e}`));
  return { problems, lines: lines.length, tips: tips.length };
}

/** The phase's lines and tips in the history replayed after its cursor, and seen by every remembering viewer. */
async function checkDelivery(o: { load: Load; streamId: number; cursor: { comment: string; tip: string }; base: string }, lines: string[], tips: Array<{ transferId: number }>): Promise<string[]> {
  const problems: string[] = [];
  const replay = await replayAfter(o.base, `stream:${o.streamId}`, o.cursor);
  if (replay.skipped) problems.push('the replay of the phase was past its bound (the check needs fewer lines per phase)');
  const replayedLines = new Set(replay.lines);
  const replayedTips = new Set(replay.tips);
  const notReplayed = lines.filter((text) => !replayedLines.has(text));
  if (notReplayed.length) problems.push(`${notReplayed.length} acknowledged chat lines not in the replayed history`);
  const tipsNotReplayed = tips.filter((tip) => !replayedTips.has(String(tip.transferId)));
  if (tipsNotReplayed.length) problems.push(`${tipsNotReplayed.length} acknowledged tips not in the replayed history`);

  // Viewers that keep what they see: each saw every line and tip of the phase, live or replayed.
  const rememberers = o.load.viewers.filter((viewer) => viewer.remembers);
  /** What one viewer has not seen of the phase, named. */
  const missedBy = (viewer: (typeof rememberers)[number], v: number) => [
    ...lines.filter((text) => !viewer.seenLines.has(text)).map((text) => `viewer ${v} line "${text}"`),
    ...tips.filter((tip) => !viewer.seenTips.has(String(tip.transferId))).map((tip) => `viewer ${v} tip ${tip.transferId}`),
  ];
  const missing = () => rememberers.flatMap(missedBy);
  const deadline = Date.now() + 10_000;
  let missed = missing();
  while (missed.length > 0 && Date.now() < deadline) {
    await sleep(250);
    missed = missing();
  }
  if (missed.length) {
    // Who missed what, and how each of them stands: a viewer that missed everything since some moment is deaf, not late.
    const missers = rememberers.flatMap((viewer, v) => {
      const lost = missedBy(viewer, v).length;
      return lost > 0 ? [`viewer ${v} missed ${lost} of ${lines.length + tips.length}: ${viewer.describe()}`] : [];
    });
    problems.push(`${missed.length} acknowledged lines or tips never reached ${rememberers.length} watching viewers (${missed.slice(0, 4).join(', ')}); ${missers.join('; ')}`);
  }
  return problems;
}

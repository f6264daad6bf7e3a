/**
 * The bank-transfer method's file (decision 0061): every approved bank transfer goes into one CSV batch
 * the operator uploads to their bank, and the bank's answer is imported back, a line per payout:
 * `PO-<id>,paid` or `PO-<id>,failed,<reason>`. A payout already settled is left as it is, so importing
 * the same answer twice changes nothing.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { fill, MSG } from '../../../common/messages';
import { recordAudit } from '../../platform/audit/audit';
import type { Db } from '../../platform/db/client';
import { AppError, badRequest, conflict } from '../../platform/http/errors';
import type { PayoutState } from '../../../common/api/payouts';
import type { PayoutRequests, PayoutStep } from './requests';
import { payoutBatches, payoutMethods, payoutRequests } from './tables';

const reference = (id: number) => `PO-${id}`;
const HEADER = ['reference', 'account_holder', 'account_number', 'bank_name', 'country', 'amount', 'currency', 'username'];

/** One CSV field: quoted when it must be, and never read as a formula by a spreadsheet. */
function field(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const OUTCOMES = ['paid', 'failed', 'returned'] as const;
type Outcome = (typeof OUTCOMES)[number];
export interface BankResult { id: number; outcome: Outcome; reason: string | null }

/**
 * What a line does to a payout in each state: an exported one is paid or failed (returned before it was
 * imported as paid, it simply failed); a paid one can only come back. Anything else is left unchanged.
 */
const STEP_FOR: Record<Outcome, Partial<Record<PayoutState, Extract<PayoutStep, 'paid' | 'failed' | 'returned'>>>> = {
  paid: { exported: 'paid' },
  failed: { exported: 'failed' },
  returned: { exported: 'failed', paid: 'returned' },
};

/** The bank's answer, checked whole before anything moves. */
export function parseBankAnswer(csv: string): BankResult[] {
  const lines = csv.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
  const results: BankResult[] = [];
  lines.forEach((line, index) => {
    const [ref = '', status = '', ...rest] = line.split(',').map((cell) => cell.trim().replace(/^"|"$/g, ''));
    if (index === 0 && ref.toLowerCase() === 'reference') return;
    const match = /^PO-(\d{1,15})$/i.exec(ref);
    const outcome = OUTCOMES.find((o) => o === status.toLowerCase());
    if (!match || !outcome) throw badRequest(fill(MSG.payoutImportLine, { line: index + 1 }), 'csv');
    const reason = rest.join(',').trim().slice(0, 300);
    results.push({ id: Number(match[1]), outcome, reason: outcome === 'paid' ? null : reason || 'The bank returned the transfer' });
  });
  if (results.length === 0) throw badRequest(MSG.payoutImportEmpty, 'csv');
  return results;
}

export function createBankTransfers(deps: { db: Db; requests: Pick<PayoutRequests, 'decide'>; accountName: (ids: number[]) => Promise<(id: number) => string> }) {
  const { db } = deps;
  return {
    /** Every approved bank transfer into a new batch, marked exported in the same transaction. */
    async export(actorId: number) {
      const { batchId, rows } = await db.transaction(async (tx) => {
        const [batch] = await tx.insert(payoutBatches).values({ createdBy: actorId }).returning();
        const exported = await tx.update(payoutRequests).set({ state: 'exported', batchId: batch!.id, updatedAt: new Date() })
          .where(and(eq(payoutRequests.state, 'approved'), eq(payoutRequests.method, 'bank_transfer'))).returning();
        if (exported.length === 0) throw conflict(MSG.payoutExportEmpty);
        await recordAudit(tx, { actorId, action: 'payout.export', targetType: 'payout', targetId: `batch:${batch!.id}`, after: { requests: exported.map((r) => r.id) } });
        return { batchId: batch!.id, rows: exported };
      });
      const accounts = new Map((await db.select().from(payoutMethods).where(inArray(payoutMethods.userId, rows.map((r) => r.userId)))).map((m) => [m.userId, m]));
      const name = await deps.accountName(rows.map((r) => r.userId));
      const lines = rows.sort((a, b) => a.id - b.id).map((r) => {
        const account = accounts.get(r.userId)!;
        return [reference(r.id), account.accountHolder, account.accountNumber, account.bankName, account.country, (r.usdCents / 100).toFixed(2), 'USD', name(r.userId)].map(field).join(',');
      });
      return {
        batch_id: batchId,
        count: rows.length,
        total_usd_cents: rows.reduce((sum, r) => sum + r.usdCents, 0),
        filename: `payouts-batch-${batchId}.csv`,
        csv: [HEADER.join(','), ...lines].join('\r\n') + '\r\n',
      };
    },

    /** The bank's answer: each exported payout paid or failed, each paid one returned (coins back); others unchanged. */
    async import(actorId: number, csv: string) {
      const results = parseBankAnswer(csv);
      const counts = { paid: 0, failed: 0, returned: 0, unchanged: 0 };
      for (const result of results) {
        const [row] = await db.select({ state: payoutRequests.state, method: payoutRequests.method }).from(payoutRequests).where(eq(payoutRequests.id, result.id));
        // A payout through Stripe is answered by Stripe, never by a bank file.
        const step = row?.method === 'bank_transfer' && STEP_FOR[result.outcome][row.state];
        if (!step) {
          counts.unchanged += 1;
          continue;
        }
        try {
          await deps.requests.decide(result.id, step, actorId, result.reason);
          counts[step] += 1;
        } catch (error) {
          // Settled by a concurrent import meanwhile.
          if (!(error instanceof AppError && error.code === 'conflict')) throw error;
          counts.unchanged += 1;
        }
      }
      return counts;
    },
  };
}

/**
 * The deposit gate (decision 0058): every deposit made on the site — the sandbox's card form, a saved
 * card, a checkout at Stripe, PayPal or BTCPay — passes here before any processor is asked. It writes
 * the attempt's payment row: pending when admitted, declined (`failure` = `risk:<why>`) when refused,
 * so that a refusal counts toward the limits as any attempt does. The limits are read and the row is
 * written in one transaction under advisory locks on the account, the card and the address, taken in
 * one order: two requests — on two instances — cannot both pass the last free place of a limit.
 * The scorer runs before the locks (an adapter may call a provider; no lock waits on it).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { MSG } from '../../../../common/messages';
import { lockForTransaction } from '../../../platform/db/advisory-lock';
import type { Db, Executor } from '../../../platform/db/client';
import { badRequest, forbidden, tooManyRequests, type AppError } from '../../../platform/http/errors';
import { payments } from '../tables';
import { brokenLimit, limitMessage, type DepositLimits, type LimitBroken } from './limits';
import type { DepositAttempt, RiskScorer } from './scorer';
import { readHistory, readUsage, type AttemptKeys } from './signals';

export interface GateRequest extends Omit<DepositAttempt, 'history' | 'accountCreatedAt'> {
  /** The processor the payment row names (`sandbox`, `stripe`, …). */
  provider: string;
}

export type Refusal = LimitBroken | 'risk_score';

/** What an admitted attempt writes with its payment, in the same transaction. */
export interface AdmitExtras {
  /** Opens the recurring package; its id is written on the payment. */
  openRecurring?: ((tx: Executor) => Promise<number>) | undefined;
  /** Written once the payment's id is known (a plan paid through a processor, decision 0059). */
  alongside?: ((tx: Executor, paymentId: number) => Promise<void>) | undefined;
  /** A hosted checkout's lease: a start that dies before the processor answers is closed by the reconcile job after it. */
  reconcileAfter?: Date | undefined;
}

/** The error a refused attempt answers: the message says which limit, or that the checks refused it. */
function refusalError(refusal: Refusal, limits: DepositLimits, currency: 'USD' | 'CAD'): AppError {
  if (refusal === 'risk_score') return forbidden(MSG.depositRiskRefused);
  const message = limitMessage(refusal, limits, currency);
  return refusal === 'over_max' ? badRequest(message, 'package_id') : tooManyRequests(message);
}

const lockKeysOf = (keys: AttemptKeys) =>
  [`deposit-risk:user:${keys.userId}`, ...(keys.cardKey ? [`deposit-risk:card:${keys.cardKey}`] : []), ...(keys.address ? [`deposit-risk:address:${keys.address}`] : [])].sort();

export function createDepositGate(deps: {
  db: Db;
  scorer: RiskScorer;
  limits: DepositLimits;
  threshold: number;
  accountCreatedAt(userId: number): Promise<Date | null>;
  log: Pick<FastifyBaseLogger, 'warn'>;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  return {
    /**
     * Admits the attempt and writes its pending payment with `extra` in the same transaction, answering the
     * payment's id; or writes the refused attempt, logs it and throws the refusal for the payer.
     */
    async admit(request: GateRequest, extra: AdmitExtras = {}): Promise<number> {
      const at = now();
      const keys: AttemptKeys = { userId: request.userId, cardKey: request.card?.key ?? null, address: request.address };
      const { provider, ...attempt } = request;
      const assessment = await deps.scorer.score({
        ...attempt,
        accountCreatedAt: await deps.accountCreatedAt(request.userId),
        history: await readHistory(deps.db, keys, at),
      }, at);
      const score = Math.max(0, Math.min(100, Math.round(assessment.score)));

      const outcome = await deps.db.transaction(async (tx) => {
        for (const key of lockKeysOf(keys)) await lockForTransaction(tx, key);
        const broken = brokenLimit(deps.limits, await readUsage(tx, keys, at), request.amountCents);
        const refusal: Refusal | null = broken ?? (score >= deps.threshold ? 'risk_score' : null);
        const coinSubscriptionId = refusal === null && extra.openRecurring ? await extra.openRecurring(tx) : null;
        const [row] = await tx.insert(payments).values({
          userId: request.userId, provider, method: request.method,
          // Replaced by the processor's reference once it has answered; a refused attempt never reaches one.
          providerRef: `${refusal === null ? 'pending' : 'refused'}:${randomUUID()}`,
          packageId: request.packageId, amount: request.amountCents, currency: request.currency,
          status: refusal === null ? 'pending' : 'declined',
          ...(refusal === null ? {} : { failure: `risk:${refusal}${refusal === 'risk_score' ? `:${assessment.reasons.join(',')}` : ''}`, settledAt: at }),
          coinSubscriptionId, periodNo: coinSubscriptionId === null ? null : 1,
          cardKey: keys.cardKey, clientAddress: keys.address, riskScore: score,
          reconcileAfter: refusal === null ? (extra.reconcileAfter ?? null) : null,
        }).returning({ id: payments.id });
        if (refusal === null && extra.alongside) await extra.alongside(tx, row!.id);
        return { paymentId: row!.id, refusal };
      });

      if (outcome.refusal === null) return outcome.paymentId;
      // Ids, the rule and the score only: never the address or the card.
      deps.log.warn({ userId: request.userId, paymentId: outcome.paymentId, refusal: outcome.refusal, score, reasons: assessment.reasons, scorer: deps.scorer.name },
        'a deposit was refused by the risk checks');
      throw refusalError(outcome.refusal, deps.limits, request.currency);
    },
  };
}

export type DepositGate = ReturnType<typeof createDepositGate>;

/**
 * Offers on plans (decision 0089): a creator's free trial, first-period discount or bundle of months on
 * one of their plans, limited in count and time, reached by its link. Taking one is a subscription whose
 * first period has the offer's price and length, written in one transaction with the offer's count (a
 * guarded update: never more fans than the limit), the fan's claim, and the ledger transfer when coins
 * move (the ordinary subscription transfer, only the amount differs; a trial moves none). The subscription
 * keeps the plan's price and period, so the renewal job charges the full price after the offer period.
 */
import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { PlanOffer } from '../../../common/api/plan-offers';
import { fill, MSG, type Message } from '../../../common/messages';
import { coins } from '../../../common/rules/format';
import {
  firstPeriod, isMonthlyPlan, OFFER_CODE_ALPHABET, OFFER_RULES, OFFER_STATE_TEXTS, offerName, offerState, offerTerms, type OfferKind,
} from '../../../common/rules/plan-offers';
import { periodLabel } from '../../../common/rules/plans';
import { sqlState, type Db, type Executor } from '../../platform/db/client';
import type { Principal } from '../../platform/http/auth';
import { badRequest, conflict, notFound } from '../../platform/http/errors';
import type { AccountsService } from '../accounts';
import { InsufficientFunds } from '../ledger';
import { fundAccount, type SubscriptionsService } from './service';
import { offerClaims, planOffers, subscriptionPlans, subscriptions } from './tables';
import { featureTexts } from './templates';

const UNIQUE_VIOLATION = '23505';
const DAY_MS = 24 * 60 * 60 * 1000;

type OfferRow = typeof planOffers.$inferSelect;
type PlanRow = typeof subscriptionPlans.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;

const iso = (date: Date | string) => new Date(date).toISOString();
const isIntroductory = (kind: OfferKind) => kind === 'trial' || kind === 'discount';
const termsOf = (row: OfferRow) => ({ kind: row.kind, days: row.days, percent: row.percent, months: row.months });

function newCode(): string {
  let code = '';
  for (let i = 0; i < OFFER_RULES.codeLength; i++) code += OFFER_CODE_ALPHABET[randomInt(OFFER_CODE_ALPHABET.length)];
  return code;
}

/** An offer that can still be taken at `now` (as SQL): not withdrawn, not past its end, not full. */
const openAt = (now: Date) => and(
  isNull(planOffers.withdrawnAt),
  or(isNull(planOffers.endsAt), gt(planOffers.endsAt, now)),
  or(isNull(planOffers.maxClaims), lt(planOffers.claims, planOffers.maxClaims)),
);

export interface OfferInput {
  plan_id: number;
  kind: OfferKind;
  days?: number | undefined;
  percent?: number | undefined;
  months?: number | undefined;
  max_claims?: number | null | undefined;
  ends_at?: string | null | undefined;
}

export function createPlanOffers(deps: { db: Db; subscriptions: SubscriptionsService; accounts: AccountsService; now?: () => Date }) {
  const { db } = deps;
  const { offers: subs } = deps.subscriptions;
  const clock = deps.now ?? (() => new Date());

  const stateOf = (row: OfferRow, now = clock()) => offerState({ withdrawn_at: row.withdrawnAt, ends_at: row.endsAt, max_claims: row.maxClaims, claims: row.claims }, now);

  function toOffer(row: OfferRow, plan: PlanRow, now = clock()): PlanOffer {
    const terms = termsOf(row);
    const first = firstPeriod(terms, plan);
    return {
      offer_id: row.id,
      code: row.code,
      plan_id: row.planId,
      user_id: row.creatorId,
      kind: row.kind,
      days: row.days,
      percent: row.percent,
      months: row.months,
      max_claims: row.maxClaims,
      ends_at: row.endsAt ? iso(row.endsAt) : null,
      claims: row.claims,
      created_at: iso(row.createdAt),
      withdrawn_at: row.withdrawnAt ? iso(row.withdrawnAt) : null,
      state: stateOf(row, now),
      name: offerName(terms),
      terms: offerTerms(terms, plan),
      first_price: first.price,
      first_period: first.period,
      plan_name: plan.name,
      plan_price: plan.price,
      plan_period: plan.period,
      plan_period_label: periodLabel(plan.period),
      features: featureTexts(plan.benefits),
    };
  }

  /** An offer by its code, with its plan while the plan is still offered. */
  async function byCode(code: string, exec: Executor = db): Promise<{ offer: OfferRow; plan: PlanRow } | null> {
    const [row] = await exec.select({ offer: planOffers, plan: subscriptionPlans }).from(planOffers)
      .innerJoin(subscriptionPlans, and(eq(subscriptionPlans.id, planOffers.planId), isNull(subscriptionPlans.deletedAt)))
      .where(eq(planOffers.code, code));
    return row ?? null;
  }

  async function add(principal: Principal, input: OfferInput) {
    const now = clock();
    const endsAt = input.ends_at ? new Date(input.ends_at) : null;
    if (endsAt && (endsAt <= now || endsAt.getTime() > now.getTime() + OFFER_RULES.maxDaysAhead * DAY_MS)) {
      throw badRequest(fill(MSG.offerEndsAtInvalid, { days: OFFER_RULES.maxDaysAhead }), 'ends_at');
    }
    return db.transaction(async (tx) => {
      // The plan is held while its open offers are counted: two adds at once cannot both pass the limit.
      const [plan] = await tx.select().from(subscriptionPlans)
        .where(and(eq(subscriptionPlans.id, input.plan_id), eq(subscriptionPlans.userId, principal.userId), isNull(subscriptionPlans.deletedAt)))
        .for('update');
      if (!plan) throw notFound(MSG.planNotFound);
      if (input.kind === 'bundle' && !isMonthlyPlan(plan.period)) throw badRequest(MSG.offerBundleMonthlyOnly, 'months');
      const [open] = await tx.select({ n: sql<number>`count(*)::int` }).from(planOffers).where(and(eq(planOffers.planId, plan.id), openAt(now)));
      if ((open?.n ?? 0) >= OFFER_RULES.openPerPlan) throw conflict(fill(MSG.offerTooMany, { n: OFFER_RULES.openPerPlan }));
      const [row] = await tx.insert(planOffers).values({
        code: newCode(),
        planId: plan.id,
        creatorId: principal.userId,
        kind: input.kind,
        days: input.kind === 'trial' ? input.days! : null,
        percent: input.kind === 'trial' ? null : input.percent!,
        months: input.kind === 'bundle' ? input.months! : null,
        maxClaims: input.max_claims ?? null,
        endsAt,
        createdAt: now,
      }).returning();
      return { offer: toOffer(row!, plan, now) };
    });
  }

  async function withdraw(principal: Principal, offerId: number) {
    const now = clock();
    const [row] = await db.select({ offer: planOffers, plan: subscriptionPlans }).from(planOffers)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, planOffers.planId))
      .where(and(eq(planOffers.id, offerId), eq(planOffers.creatorId, principal.userId)));
    if (!row) throw notFound(MSG.offerNotFound);
    // Withdrawing twice answers the first withdrawal.
    const [updated] = await db.update(planOffers).set({ withdrawnAt: now })
      .where(and(eq(planOffers.id, offerId), isNull(planOffers.withdrawnAt))).returning();
    return { offer: toOffer(updated ?? row.offer, row.plan, now) };
  }

  async function list(principal: Principal) {
    const rows = await db.select({ offer: planOffers, plan: subscriptionPlans }).from(planOffers)
      .innerJoin(subscriptionPlans, and(eq(subscriptionPlans.id, planOffers.planId), isNull(subscriptionPlans.deletedAt)))
      .where(eq(planOffers.creatorId, principal.userId))
      .orderBy(desc(planOffers.id)).limit(100);
    const now = clock();
    return { offers: rows.map((r) => toOffer(r.offer, r.plan, now)) };
  }

  /** Why the viewer may not take the offer now, or null when they may. */
  async function refusalFor(viewerId: number | null, offer: OfferRow): Promise<Message | null> {
    const state = stateOf(offer);
    if (state !== 'open') return OFFER_STATE_TEXTS[state];
    if (viewerId === null) return null;
    if (viewerId === offer.creatorId) return MSG.offerOwn;
    if (await subs.holdsCurrent(viewerId, offer.creatorId)) return MSG.offerAlreadySubscribed;
    const [taken] = await db.select({ kind: offerClaims.kind, offerId: offerClaims.offerId }).from(offerClaims)
      .where(and(eq(offerClaims.subscriberId, viewerId), eq(offerClaims.creatorId, offer.creatorId), or(eq(offerClaims.offerId, offer.id), sql`${offerClaims.kind} in ('trial', 'discount')`)))
      .limit(1);
    if (taken?.offerId === offer.id) return MSG.offerTakenBefore;
    if (isIntroductory(offer.kind) && (taken || (await subs.subscribedBefore(db, viewerId, offer.creatorId)))) return MSG.offerForNewFans;
    return null;
  }

  async function lookup(viewerId: number | null, code: string) {
    const found = await byCode(code);
    if (!found || !(await deps.accounts.isActive(found.offer.creatorId))) throw notFound(MSG.offerNotFound);
    const { offer, plan } = found;
    const people = await deps.accounts.publicUsers([offer.creatorId]);
    const creator = people.get(offer.creatorId);
    const reason = await refusalFor(viewerId, offer);
    return {
      offer: toOffer(offer, plan),
      creator: { user_id: offer.creatorId, username: creator?.username ?? '', avatar: creator?.avatar ?? null },
      claimable: viewerId !== null && reason === null,
      reason,
    };
  }

  /** The subscription an earlier claim with this key started. */
  async function claimedWithKey(subscriberId: number, key: string): Promise<{ row: SubscriptionRow; offerId: number; price: number } | null> {
    const [found] = await db.select({ row: subscriptions, offerId: offerClaims.offerId, price: offerClaims.price }).from(offerClaims)
      .innerJoin(subscriptions, eq(subscriptions.id, offerClaims.subscriptionId))
      .where(and(eq(offerClaims.subscriberId, subscriberId), eq(offerClaims.idempotencyKey, key)));
    return found ?? null;
  }

  async function answerClaim(principal: Principal, claimed: { row: SubscriptionRow; offerId: number; price: number }) {
    const [found] = await db.select({ offer: planOffers, plan: subscriptionPlans }).from(planOffers)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, planOffers.planId)).where(eq(planOffers.id, claimed.offerId));
    const offer = toOffer(found!.offer, found!.plan);
    const { subscription, balance } = await subs.answer(principal, claimed.row);
    return { message: fill(MSG.offerTaken, { terms: offer.terms }), offer, subscription, balance, charged: claimed.price };
  }

  /** Why a claim lost a unique index: the offer taken before, an introductory offer of this creator's taken before, or another subscription. */
  async function uniqueRefusal(subscriberId: number, offer: OfferRow) {
    const rows = await db.select({ offerId: offerClaims.offerId }).from(offerClaims)
      .where(and(eq(offerClaims.subscriberId, subscriberId), eq(offerClaims.creatorId, offer.creatorId)));
    if (rows.some((r) => r.offerId === offer.id)) return conflict(MSG.offerTakenBefore);
    if (isIntroductory(offer.kind) && rows.length > 0) return conflict(MSG.offerForNewFans);
    return null;
  }

  async function claim(principal: Principal, input: { code: string; auto_renew: boolean }, idempotencyKey: string) {
    const subscriberId = principal.userId;
    const key = subs.firstPaymentKey(subscriberId, `offer:${idempotencyKey}`);
    const earlier = await claimedWithKey(subscriberId, key);
    // The same key with another body never gets here: the route layer refused it (platform/http/idempotency.ts).
    if (earlier) return answerClaim(principal, earlier);
    const found = await byCode(input.code);
    if (!found) throw notFound(MSG.offerNotFound);
    const { offer, plan } = found;
    await subs.qualify(subscriberId, offer.creatorId);
    const refusal = await refusalFor(subscriberId, offer);
    if (refusal !== null) throw conflict(refusal);
    const terms = termsOf(offer);
    const first = firstPeriod(terms, plan);
    await subs.prepare(subscriberId, offer.creatorId, first.price);
    let created: SubscriptionRow;
    try {
      created = await db.transaction(async (tx) => {
        const now = clock();
        // Counted with the limits as the guard: when the offer filled up, ended or was withdrawn meanwhile, nothing is written.
        const [counted] = await tx.update(planOffers).set({ claims: sql`${planOffers.claims} + 1` })
          .where(and(eq(planOffers.id, offer.id), openAt(now))).returning();
        if (!counted) {
          const [current] = await tx.select().from(planOffers).where(eq(planOffers.id, offer.id));
          const state = current ? stateOf(current, now) : 'withdrawn';
          throw conflict(OFFER_STATE_TEXTS[state === 'open' ? 'full' : state]);
        }
        if (isIntroductory(offer.kind) && (await subs.subscribedBefore(tx, subscriberId, offer.creatorId))) throw conflict(MSG.offerForNewFans);
        const detail = `${plan.name} (${offerName(terms)}): ${first.price === 0 ? 'free' : coins(first.price)}`;
        const row = await subs.takeWithin(tx, { subscriberId, plan, autoRenew: input.auto_renew, key, first: { ...first, detail } });
        await tx.insert(offerClaims).values({
          offerId: offer.id, creatorId: offer.creatorId, subscriberId, kind: offer.kind, subscriptionId: row.id, idempotencyKey: key, price: first.price, createdAt: now,
        });
        return row;
      });
    } catch (error) {
      if (error instanceof InsufficientFunds) throw fundAccount();
      if (sqlState(error) === UNIQUE_VIOLATION) {
        // The same key's twin answers its outcome; otherwise say which rule the claim met.
        const twin = await claimedWithKey(subscriberId, key);
        if (twin) return answerClaim(principal, twin);
        const refused = await uniqueRefusal(subscriberId, offer);
        if (refused) throw refused;
        throw conflict(MSG.alreadySubscribed);
      }
      throw error;
    }
    await subs.announceSubscribed(created);
    return answerClaim(principal, { row: created, offerId: offer.id, price: first.price });
  }

  return { add, withdraw, list, lookup, claim };
}

export type PlanOffers = ReturnType<typeof createPlanOffers>;

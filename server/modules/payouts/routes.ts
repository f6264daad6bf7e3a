/** The creator's earnings and payout calls, and the console's payout queue (decision 0061). */
import type { FastifyInstance } from 'fastify';
import * as api from '../../../common/api/payouts';
import { fill, MSG } from '../../../common/messages';
import type { Db } from '../../platform/db/client';
import { ACCESS } from '../../platform/http/access';
import { conflict, notFound } from '../../platform/http/errors';
import { addRoute } from '../../platform/http/route';
import type { Ledger } from '../ledger';
import type { createBankTransfers } from './bank-transfers';
import type { StripePayouts } from './connect-routes';
import type { EarningsReads } from './earnings';
import { methodOf, shownMethod } from './methods';
import { markFailedAfter, PROCESSOR_LEASE_MS, type ProcessorPayouts } from './processor-payouts';
import type { createPayoutQueue } from './queue';
import type { PayoutReadinessCheck } from './readiness';
import { requestOut, type PayoutRequests } from './requests';
import type { Schedules } from './schedules';
import { payoutMethods } from './tables';

const tags = ['payouts'];

export function registerPayoutRoutes(app: FastifyInstance, deps: {
  db: Db; ledger: Pick<Ledger, 'holdOf'>; earnings: EarningsReads; readiness: PayoutReadinessCheck; requests: PayoutRequests; schedules: Schedules;
  queue: ReturnType<typeof createPayoutQueue>; bank: ReturnType<typeof createBankTransfers>; stripe: StripePayouts | null;
  /** The configured methods paid through a processor's API, each with its processor. */
  processors: ProcessorPayouts[];
}) {
  const { db, requests } = deps;
  const processorOf = (method: api.PayoutMethodId) => deps.processors.find((p) => p.method === method);

  addRoute(app, api.myEarnings, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ principal }) => {
    const userId = principal.userId;
    const [earnings, readiness, hold, method, schedule, mine, stripe] = await Promise.all([
      deps.earnings.of(userId), deps.readiness(userId), deps.ledger.holdOf(userId), methodOf(db, userId), deps.schedules.of(userId), requests.of(userId),
      deps.stripe?.accounts.of(userId) ?? null,
    ]);
    return {
      earnings, readiness, on_hold: hold.held, method: shownMethod(method), schedule,
      methods: ['bank_transfer' as const, ...deps.processors.map((p) => p.method)], stripe,
      open: mine.open && requestOut(mine.open), history: mine.history.map(requestOut),
    };
  });

  addRoute(app, api.savePayoutMethod, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => {
    const values = {
      method: input.method, accountHolder: input.account_holder, accountNumber: input.account_number, bankName: input.bank_name, country: input.country,
      completedAt: new Date(), updatedAt: new Date(),
    };
    const [row] = await db.insert(payoutMethods).values({ userId: principal.userId, ...values })
      .onConflictDoUpdate({ target: payoutMethods.userId, set: values }).returning();
    return { method: shownMethod(row!)! };
  });

  addRoute(app, api.requestPayout, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal, keyed }) => ({
    request: requestOut(await requests.request(principal.userId, input.coins, `${principal.userId}:${keyed.key}`)),
  }));

  addRoute(app, api.cancelPayout, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    request: requestOut(await requests.cancel(principal.userId, input.id)),
  }));

  addRoute(app, api.setPayoutSchedule, { auth: 'user', access: ACCESS.signedIn, tags }, async ({ input, principal }) => ({
    schedule: await deps.schedules.set(principal.userId, input.schedule),
  }));

  // The console's queue (administrators).
  addRoute(app, api.adminPayouts, { auth: 'admin', access: ACCESS.admin, tags }, async ({ input }) => ({ requests: await deps.queue(input.state, input.limit) }));

  addRoute(app, api.approvePayout, { auth: 'admin', access: ACCESS.admin, tags }, async ({ input, principal }) => {
    const approved = await requests.decide(input.id, 'approve', principal.userId);
    const processor = processorOf(approved.method);
    if (!processor) return { request: requestOut(approved) };
    // A method paid through a processor's API leaves at once (decision 0063).
    await processor.send(approved.id, principal.userId);
    return { request: requestOut((await requests.byId(approved.id))!) };
  });

  // A processor that never answered (decision 0064): after a whole lease, an administrator may give up on it.
  addRoute(app, api.markPayoutFailed, { auth: 'admin', access: ACCESS.admin, tags }, async ({ input, principal }) => {
    const row = await requests.byId(input.id);
    if (!row) throw notFound(MSG.payoutUnknown);
    const after = markFailedAfter(row);
    if (!after) throw conflict(fill(MSG.payoutNotSent, { state: row.state }));
    if (after.getTime() > Date.now()) throw conflict(fill(MSG.payoutNotOverdue, { minutes: PROCESSOR_LEASE_MS / 60_000 }));
    return { request: requestOut(await requests.decide(input.id, 'mark-failed', principal.userId, input.reason)) };
  });

  addRoute(app, api.rejectPayout, { auth: 'admin', access: ACCESS.admin, tags }, async ({ input, principal }) => ({
    request: requestOut(await requests.decide(input.id, 'reject', principal.userId, input.reason)),
  }));

  addRoute(app, api.exportPayouts, { auth: 'admin', access: ACCESS.admin, tags }, async ({ principal }) => deps.bank.export(principal.userId));

  addRoute(app, api.importPayouts, { auth: 'admin', access: ACCESS.admin, tags }, async ({ input, principal }) => deps.bank.import(principal.userId, input.csv));
}

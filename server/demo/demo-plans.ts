/** Subscription plans of the demo broadcasters, so a new visitor of the demo meets Subscribe (made once, with the accounts). */
import type { ModuleServices } from '../platform/module';
import { PLAN_TEMPLATES } from '../modules/subscriptions';

/** Each demo broadcaster offers the Fan and VIP templates monthly. */
const DEMO_OFFERS: ReadonlyArray<{ code: (typeof PLAN_TEMPLATES)[number]['code']; period: string }> = [
  { code: 'fan', period: 'RMONTH:1' },
  { code: 'vip', period: 'RMONTH:1' },
];

export async function seedDemoPlans(services: Pick<ModuleServices, 'subscriptions'>, broadcasterIds: number[]): Promise<number> {
  const templates = await services.subscriptions.templates(broadcasterIds[0] ?? 0);
  let added = 0;
  for (const userId of broadcasterIds) {
    const principal = { userId, role: 'user' as const, perms: ['CREATE PLAN' as const], suspended: false };
    for (const offer of DEMO_OFFERS) {
      const name = PLAN_TEMPLATES.find((t) => t.code === offer.code)!.name;
      const template = templates.find((t) => t.name === name);
      const price = template?.prices.find((p) => p.period === offer.period);
      if (!template || !price) continue;
      await services.subscriptions.addPlan(principal, { template_id: template.template_id, price: price.price, currency: 'CON' });
      added += 1;
    }
  }
  return added;
}

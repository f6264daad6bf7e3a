/** Plan templates: reference data present in every installation (decision 0004), found again by `code`. */
import type { Db } from '../../platform/db/client';
import { planTemplates, type Benefits, type TemplatePrice } from './tables';

const SINCE = '2026-01-01';
const price = (amount: number, period: string, description: string): TemplatePrice =>
  ({ price: amount, currency: 'CON', period, description, effective_date: SINCE });

/** What people read of each benefit (a plan's `features`). */
export function featureTexts(benefits: Benefits): string[] {
  const texts: string[] = [];
  if (benefits.priority_chat) texts.push('Priority chat with the creator');
  if (benefits.no_paywall || benefits.discount >= 1) texts.push('No pay wall on paid streams');
  else if (benefits.discount > 0) texts.push(`${Math.round(benefits.discount * 100)}% off paid streams`);
  if (benefits.no_ads) texts.push('No ads');
  return texts;
}

/** Prices in coins (20 coins = 1 USD); within a template each price is distinct (a creator's plan is a template at one price). */
export const PLAN_TEMPLATES = [
  {
    code: 'fan',
    name: 'Fan',
    description: 'Stand out in the chat: your messages go to the priority chat the creator reads first.',
    level: 1,
    benefits: { priority_chat: true, no_paywall: false, no_ads: false, discount: 0 },
    prices: [
      price(10, 'RDAY:1', 'One day'),
      price(50, 'RWEEK:1', 'One week'),
      price(150, 'RMONTH:1', 'One month'),
      price(160, 'CMONTH:1', 'To the end of the calendar month, then monthly'),
      price(400, 'RMONTH:3', 'Three months'),
      price(1500, 'RYEAR:1', 'One year'),
    ],
  },
  {
    code: 'supporter',
    name: 'Supporter',
    description: 'Priority chat, and half price on the creator\'s paid streams.',
    level: 2,
    benefits: { priority_chat: true, no_paywall: false, no_ads: false, discount: 0.5 },
    prices: [price(100, 'RWEEK:1', 'One week'), price(300, 'RMONTH:1', 'One month'), price(800, 'RMONTH:3', 'Three months'), price(3000, 'RYEAR:1', 'One year')],
  },
  {
    code: 'vip',
    name: 'VIP',
    description: 'Everything: priority chat, every paid stream without a pay wall, and no ads.',
    level: 3,
    benefits: { priority_chat: true, no_paywall: true, no_ads: true, discount: 1 },
    prices: [price(600, 'RMONTH:1', 'One month'), price(1600, 'RMONTH:3', 'Three months'), price(6000, 'RYEAR:1', 'One year')],
  },
] as const satisfies ReadonlyArray<{ code: string; name: string; description: string; level: number; benefits: Benefits; prices: TemplatePrice[] }>;

/** Inserts the templates that are missing; an operator's later changes to one stay. */
export async function ensurePlanTemplates(db: Db): Promise<void> {
  await db.insert(planTemplates).values(PLAN_TEMPLATES.map((t) => ({ ...t, prices: [...t.prices] }))).onConflictDoNothing({ target: planTemplates.code });
}

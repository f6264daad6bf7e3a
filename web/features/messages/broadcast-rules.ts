/**
 * Messages to many (decision 0086), as the creator's panel shows them: whom a message goes to in words,
 * the plans to choose from, each message's state, when the list is read again, and the key of a send.
 */
import type { MessageBroadcast } from '../../../common/api/messages';
import { fill, MSG } from '../../../common/messages';
import type { BroadcastAudience } from '../../../common/rules/messages';

/** A creator's plan, as the panel names it. */
export interface PlanChoice {
  plan_id: number;
  name: string;
  period_label: string;
}

/** A plan's name, with its period when another of the creator's plans has the same name ("Fan (Yearly)"). */
export function planTitle(plan: PlanChoice, plans: readonly PlanChoice[]): string {
  const twins = plans.filter((other) => other.name === plan.name).length;
  return twins > 1 ? `${plan.name} (${plan.period_label})` : plan.name;
}

/** The plan a message went to, named among the creator's plans now; null when it is not one of them any more. */
export function planTitleOf(planId: number, plans: readonly PlanChoice[]): string | null {
  const plan = plans.find((p) => p.plan_id === planId);
  return plan ? planTitle(plan, plans) : null;
}

/** Whom a message goes to, as a sentence says it: "your followers", "the subscribers of Fan". */
export function audienceText(audience: BroadcastAudience, planTitleText: string | null = null): string {
  if (audience === 'followers') return 'your followers';
  return planTitleText ? `the subscribers of ${planTitleText}` : 'your subscribers';
}

/** What the page says once a message is queued (MSG.broadcastQueued). */
export function queuedText(audience: BroadcastAudience, planTitleText: string | null = null): string {
  return fill(MSG.broadcastQueued, { audience: audienceText(audience, planTitleText) });
}

/**
 * Whom a message of the list went to, as a label: "Followers", "All subscribers", "Subscribers of Fan";
 * a plan withdrawn since is "Subscribers of one plan".
 */
export function audienceLabel(broadcast: Pick<MessageBroadcast, 'audience' | 'plan_id'>, plans: readonly PlanChoice[]): string {
  if (broadcast.audience === 'followers') return 'Followers';
  if (broadcast.plan_id === null) return 'All subscribers';
  return `Subscribers of ${planTitleOf(broadcast.plan_id, plans) ?? 'one plan'}`;
}

export const stateText = (state: MessageBroadcast['state']): string => (state === 'sending' ? 'Sending…' : 'Delivered');

/** The list is read again this often while a message of it is still being delivered. */
export const SENDING_POLL_MS = 3_000;

export const anySending = (broadcasts: readonly Pick<MessageBroadcast, 'state'>[]): boolean => broadcasts.some((b) => b.state === 'sending');

/** The list's refetch interval: every SENDING_POLL_MS while one is sending, otherwise none. */
export const pollInterval = (broadcasts: readonly Pick<MessageBroadcast, 'state'>[] | undefined): number | false =>
  broadcasts && anySending(broadcasts) ? SENDING_POLL_MS : false;

/** What one send asks for: the server answers the same sending again for the same key. */
export interface BroadcastDraft {
  audience: BroadcastAudience;
  plan_id: number | null;
  text: string;
  /** A vault medium, and its price (0: free). */
  media_id: number | null;
  price: number;
}

/** A draft's key, kept until it is sent: the same draft sent again (a retry) is the same sending. */
export interface PendingSend {
  draft: BroadcastDraft | null;
  key: string;
}

const sameDraft = (a: BroadcastDraft | null, b: BroadcastDraft) =>
  a !== null && a.audience === b.audience && a.plan_id === b.plan_id && a.text === b.text && a.media_id === b.media_id && a.price === b.price;

/** The key to send `draft` with: the pending one for the same draft, a fresh one (`fresh()`) for any other. */
export function pendingFor(pending: PendingSend, draft: BroadcastDraft, fresh: () => string): PendingSend {
  return sameDraft(pending.draft, draft) && pending.key ? pending : { draft, key: fresh() };
}

export const NOTHING_PENDING: PendingSend = { draft: null, key: '' };

/** One page of the list, as cached. */
export interface BroadcastPage {
  broadcasts: MessageBroadcast[];
  total: number;
}

/** The list's next page: its offset, while the server has more than the pages hold. */
export function nextBroadcastOffset(last: BroadcastPage, pages: readonly BroadcastPage[]): number | undefined {
  const loaded = pages.reduce((sum, page) => sum + page.broadcasts.length, 0);
  return last.broadcasts.length > 0 && loaded < last.total ? loaded : undefined;
}

/** The messages of every page, once each (one sent between two reads moves the others a place down). */
export function listedBroadcasts(pages: readonly BroadcastPage[]): MessageBroadcast[] {
  const seen = new Set<number>();
  return pages.flatMap((page) => page.broadcasts).filter((b) => !seen.has(b.broadcast_id) && seen.add(b.broadcast_id));
}

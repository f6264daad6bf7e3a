/**
 * The rules of tipping on the stream page (spec part 1 §2 Tip selector, §4 Tip dialog, §6 pay wall;
 * part 2 §8 tip errors, §9 quick tips, debounce, animations, indicator).
 */
import { owedAfterTip } from '../../../common/rules/pay-wall';
import type { StreamInfo } from '../../../common/api/streams';
import type { TipMenuItem } from '../../../common/api/tips';
import { MSG } from '../../../common/messages';
import type { RealtimeMessageOf } from '../../../common/realtime';
import type { ApiError } from '../../api/client';

/** Tip sends closer together than this are dropped (part 2 §9: debounced 1 s). */
export const TIP_DEBOUNCE_MS = 1_000;
/** How long the owner's "tip received" indicator stays (part 2 §9). */
export const TIP_RECEIVED_MS = 3_000;

// ---- First confirm, then direct sends, debounced -------------------------------------------------

export interface TipGate {
  /** The viewer confirmed one tip already: later tips send at once (kept for the page session). */
  confirmed: boolean;
  /** When the last click that was acted on or dropped happened (ms). */
  lastClickAt: number | null;
  /** A send is on its way. */
  sending: boolean;
}

export const initialGate: TipGate = { confirmed: false, lastClickAt: null, sending: false };

export type TipClick = 'confirm' | 'send' | 'ignore';

/**
 * What a click on a tip amount does: the first one opens the confirm dialog; after a confirmed tip,
 * clicks send directly, but not while one is sending nor within 1 s of the previous click (a leading
 * debounce: the first click of a burst sends, the rest of the burst is dropped).
 */
export function tipClick(gate: TipGate, now: number): { action: TipClick; gate: TipGate } {
  if (!gate.confirmed) return { action: 'confirm', gate };
  const tooSoon = gate.lastClickAt !== null && now - gate.lastClickAt < TIP_DEBOUNCE_MS;
  const next = { ...gate, lastClickAt: now };
  if (gate.sending || tooSoon) return { action: 'ignore', gate: next };
  return { action: 'send', gate: next };
}

/** One intended tip: its coins, the tipper's words, the action of the broadcaster's tip menu it buys. */
export interface Tip {
  amount: number;
  message?: string | undefined;
  item?: Pick<TipMenuItem, 'item_id' | 'label'> | undefined;
}

// ---- Idempotency keys -----------------------------------------------------------------------------

export interface TipAttempt {
  amount: number;
  key: string;
  /** The tip menu's action the tip buys, if any. */
  itemId?: number | undefined;
}

/**
 * The attempt of a send: a retry of the same amount (for the same action of the tip menu, if any) after
 * a network failure (the server may have moved the coins) reuses its key; anything else gets a fresh key.
 */
export function attemptFor(unsettled: TipAttempt | null, amount: number, newKey: () => string, itemId?: number): TipAttempt {
  return unsettled && unsettled.amount === amount && unsettled.itemId === itemId ? unsettled : { amount, key: newKey(), itemId };
}

// ---- Failure texts --------------------------------------------------------------------------------

export type TipFailure =
  | { kind: 'no-coins'; text: string }
  | { kind: 'cannot-tip'; text: string }
  | { kind: 'server'; text: string }
  | { kind: 'network'; text: string }
  | { kind: 'unknown'; text: string };

/**
 * The failure modal's text for a refused tip (part 2 §8), by the answer's code. The spec's "messages
 * containing 'insufficient' show the server text" has no code of its own: a throttled tip is the one
 * other refusal whose text helps the viewer.
 */
export function tipFailure(error: Pick<ApiError, 'code' | 'message'>): TipFailure {
  switch (error.code) {
    case 'network':
      return { kind: 'network', text: MSG.tipNetworkFailure };
    case 'insufficient_funds':
      return { kind: 'no-coins', text: MSG.notEnoughCoinsForTip };
    case 'cannot_tip':
      return { kind: 'cannot-tip', text: MSG.broadcasterCannotReceiveTips };
    case 'rate_limited':
    case 'wallet_on_hold':
      return { kind: 'server', text: error.message };
    default:
      return { kind: 'unknown', text: MSG.tipFailed };
  }
}

// ---- Pay wall --------------------------------------------------------------------------------------

/** The pay wall shows while coins are owed to a viewer who is not the owner and not let through (spec part 1 §6). */
export function needsPayWall(stream: Pick<StreamInfo, 'tip_owed' | 'is_owner' | 'skip_paywall'>): boolean {
  return stream.tip_owed > 0 && !stream.is_owner && !stream.skip_paywall;
}

/** The coins owed from a stream_payment_required answer (its tip_owed). */
export function owedFromRefusal(body: Record<string, unknown>): number | null {
  const owed = body.tip_owed;
  return typeof owed === 'number' && owed > 0 ? owed : null;
}

/** The lookup after a tip: the answer's has_paid and spend, and what is still owed. */
export function afterTip<S extends Pick<StreamInfo, 'tip_owed' | 'has_paid' | 'viewer_spend'>>(
  stream: S,
  amount: number,
  answer: { has_paid: boolean; viewer_spend: StreamInfo['viewer_spend'] },
): S {
  return { ...stream, has_paid: answer.has_paid, viewer_spend: answer.viewer_spend, tip_owed: answer.has_paid ? 0 : owedAfterTip(stream.tip_owed, amount) };
}

// ---- Animations -----------------------------------------------------------------------------------

export type TipSize = 'small' | 'medium' | 'large';

/** 5, 10, 20 small; 100 medium; 200 large (spec part 1 §4); amounts between go to the size below. */
export function tipSize(coins: number): TipSize {
  if (coins >= 200) return 'large';
  if (coins >= 100) return 'medium';
  return 'small';
}

export interface TipEvent {
  coins: number;
  name: string;
  senderId: number;
}

/** A TIP message as an animation event. */
export function tipEventOf(message: RealtimeMessageOf<'TIP'>): TipEvent {
  return { coins: message.data.recipient_amount, name: message.sender.name || 'Someone', senderId: message.sender.user_id };
}

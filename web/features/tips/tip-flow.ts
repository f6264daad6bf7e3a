/**
 * The rules of tipping on the stream page (spec part 1 §2 Tip selector, §4 Tip dialog, §6 pay wall;
 * part 2 §8 tip errors, §9 quick tips, debounce, animations, indicator).
 */
import type { StreamInfo } from '../../../common/api/streams';
import type { RealtimeMessage } from '../../../common/realtime';

/** Tip sends closer together than this are dropped (part 2 §9: debounced 1 s). */
export const TIP_DEBOUNCE_MS = 1_000;
/** How long the owner's "tip received" indicator stays (part 2 §9). */
export const TIP_RECEIVED_MS = 3_000;

export const TIP_TEXT = {
  failureTitle: 'Tip Sending Failure',
  notEnoughCoins: "You don't have enough coins for this tip.",
  cannotTip: 'The broadcaster cannot receive tips at this time',
  generic: 'Something went wrong, fail to tip!',
  contactSupport: 'Please try again later, or contact customer support if it keeps happening.',
  network: 'The tip could not reach us. Check your connection and try again; you will not be charged twice.',
} as const;

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

// ---- Idempotency keys -----------------------------------------------------------------------------

export interface TipAttempt {
  amount: number;
  key: string;
}

/**
 * The attempt of a send: a retry of the same amount after a network failure (the server may have
 * moved the coins) reuses its key; anything else gets a fresh key.
 */
export function attemptFor(unsettled: TipAttempt | null, amount: number, newKey: () => string): TipAttempt {
  return unsettled && unsettled.amount === amount ? unsettled : { amount, key: newKey() };
}

// ---- Failure texts --------------------------------------------------------------------------------

export type TipFailure =
  | { kind: 'no-coins'; text: string }
  | { kind: 'cannot-tip'; text: string }
  | { kind: 'server'; text: string }
  | { kind: 'network'; text: string }
  | { kind: 'unknown'; text: string };

/** The failure modal's text for a refused tip (part 2 §8, in the catalogue's order). */
export function tipFailure(message: string, status?: number): TipFailure {
  if (status === 0) return { kind: 'network', text: TIP_TEXT.network };
  if (message.includes('Insufficient funds')) return { kind: 'no-coins', text: TIP_TEXT.notEnoughCoins };
  if (message.includes('Cannot tip this user')) return { kind: 'cannot-tip', text: TIP_TEXT.cannotTip };
  if (message.toLowerCase().includes('insufficient')) return { kind: 'server', text: message };
  return { kind: 'unknown', text: TIP_TEXT.generic };
}

// ---- Pay wall --------------------------------------------------------------------------------------

/** The pay wall shows while coins are owed to a viewer who is not the owner and not let through (spec part 1 §6). */
export function needsPayWall(stream: Pick<StreamInfo, 'tip_owed' | 'is_owner' | 'skip_paywall'>): boolean {
  return stream.tip_owed > 0 && !stream.is_owner && !stream.skip_paywall;
}

/** The coins owed from a 402 payment_required answer: its tip_owed, else the number in 'Tip {owed} coins to watch this stream.'. */
export function owedFromRefusal(body: Record<string, unknown>, message: string): number | null {
  const owed = body.tip_owed;
  if (typeof owed === 'number' && owed > 0) return owed;
  const fromText = Number(/Tip (\d+) coins/i.exec(message)?.[1]);
  return Number.isFinite(fromText) && fromText > 0 ? fromText : null;
}

/** The lookup after a tip: the answer's has_paid and spend, and what is still owed. */
export function afterTip<S extends Pick<StreamInfo, 'tip_owed' | 'has_paid' | 'viewer_spend'>>(
  stream: S,
  amount: number,
  answer: { has_paid: boolean; viewer_spend: StreamInfo['viewer_spend'] },
): S {
  return { ...stream, has_paid: answer.has_paid, viewer_spend: answer.viewer_spend, tip_owed: answer.has_paid ? 0 : Math.max(0, stream.tip_owed - amount) };
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
  senderId: number | null;
}

/** A TIP message as an animation event; coins from data.recipient_amount, else the first number of the text. */
export function tipEventOf(message: RealtimeMessage): TipEvent | null {
  if (message.type !== 'TIP') return null;
  const raw = message.data?.recipient_amount;
  const fromData = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
  const fromText = Number(/\d+/.exec(message.text ?? '')?.[0]);
  const coins = Number.isFinite(fromData) && fromData > 0 ? fromData : Number.isFinite(fromText) && fromText > 0 ? fromText : null;
  if (coins === null) return null;
  return { coins, name: message.sender?.name || 'Someone', senderId: message.sender?.user_id ?? null };
}

/** Chat lines (spec part 1 §3 Chat message) from realtime messages (§3 Realtime message, §4 types). */
import { fill, MSG } from '../../../common/messages';
import { CHAT_TEXT_MAX } from '../../../common/realtime-channels';
import type { RealtimeMessage, RealtimeMessageOf, RealtimeType } from '../../../common/realtime';

export interface ChatLine {
  /** Unique in one list: the type and the server's timetoken, or the page's own for system lines. */
  key: string;
  /** The server's id of a COMMENT or TIP; null for the page's own lines. */
  timetoken: string | null;
  /** Order of arrival on this page; translation applies to lines from a given seq on. */
  seq: number;
  kind: 'comment' | 'tip' | 'system';
  text: string;
  name: string;
  userId: number | null;
  avatar: string | null;
  isOwner: boolean;
  isPriority: boolean;
  /** Coins of a TIP line. */
  tipAmount: number | null;
  /** The tip menu's action a TIP line bought. */
  request?: string | undefined;
  /** The emotes a COMMENT uses: code to image address. */
  emotes?: Readonly<Record<string, string>> | undefined;
  time: string | null;
}

/** The lines a chat list keeps; older ones leave the top. */
export const MAX_LINES = 200;
/** Overlay chat over the video: the last 4 lines, each for 5 s (spec part 2 §9). */
export const OVERLAY_LINES = 4;
export const OVERLAY_LINE_MS = 5_000;
/** The counter shows from this many characters on. */
export const COUNTER_FROM = CHAT_TEXT_MAX - 50;

/** The messages the stream page itself reacts to (pause, reload, end, block, chat switch, tip animations). */
export type ServiceMessage = RealtimeMessageOf<'STREAM-END' | 'STREAM-OPTIONS' | 'BLOCKED' | 'TIP' | 'TIP-ENFORCE'>;
const SERVICE_TYPES: ReadonlySet<RealtimeType> = new Set<ServiceMessage['type']>(['STREAM-END', 'STREAM-OPTIONS', 'BLOCKED', 'TIP', 'TIP-ENFORCE']);
export const isServiceMessage = (message: RealtimeMessage): message is ServiceMessage => SERVICE_TYPES.has(message.type);

let seqCounter = 0;
const nextSeq = () => ++seqCounter;

/** 'Sent N Coins!!' (spec part 1 §2 Stream view, overlay tip lines). */
export const tipText = (coins: number) => `Sent ${coins.toLocaleString('en-US')} Coins!!`;

/** A COMMENT or TIP as a chat line; other types make no line. */
export function toChatLine(message: RealtimeMessage): ChatLine | null {
  if (message.type !== 'COMMENT' && message.type !== 'TIP') return null;
  const { sender } = message;
  const seq = nextSeq();
  const base = {
    key: `${message.type}:${message.timetoken}`,
    timetoken: message.timetoken,
    seq,
    name: sender.name || 'Someone',
    userId: sender.user_id,
    avatar: sender.avatar,
    isOwner: sender.is_owner,
    isPriority: sender.is_priority,
    time: message.chatTime,
  };
  if (message.type === 'TIP') {
    const coins = message.data.recipient_amount;
    const { message: said, menu_item: request } = message.data;
    return { ...base, kind: 'tip', text: said ? `${tipText(coins)} “${said}”` : tipText(coins), tipAmount: coins, request };
  }
  return { ...base, kind: 'comment', text: message.text, tipAmount: null, emotes: message.emotes };
}

/**
 * The lines a service message announces in the chat, said by no one: 'Goal reached: …' for each tip
 * goal a GOAL message reached (keyed by the goal, so a goal is announced once).
 */
export function announcedLines(message: RealtimeMessage): ChatLine[] {
  if (message.type !== 'GOAL') return [];
  return message.data.reached.map((goal) => ({ ...systemLine(fill(MSG.goalReached, { description: goal.description })), key: `GOAL:${goal.goal_id}` }));
}

/** A line the page says itself (chat switched off, stream ended). */
export function systemLine(text: string): ChatLine {
  const seq = nextSeq();
  return { key: `system:${seq}`, timetoken: null, seq, kind: 'system', text, name: '', userId: null, avatar: null, isOwner: false, isPriority: false, tipAmount: null, time: null };
}

/** A place in the order of arrival for a line the page adds to its own list alone (a chat ad). */
export const localLineSeq = (): number => nextSeq();

/** A channel's lines and the page's own lines as one list, in the order they arrived. */
export function interleave<L extends { seq: number }>(lines: readonly ChatLine[], local: readonly L[]): Array<{ line: ChatLine } | { local: L }> {
  const merged: Array<{ line: ChatLine } | { local: L }> = [];
  const own = [...local].sort((a, b) => a.seq - b.seq);
  let next = 0;
  for (const line of lines) {
    while (next < own.length && (own[next] as L).seq < line.seq) merged.push({ local: own[next++] as L });
    merged.push({ line });
  }
  for (; next < own.length; next++) merged.push({ local: own[next] as L });
  return merged;
}

/** Appends lines, dropping any whose key is already there and keeping the newest MAX_LINES. */
/** The list without the COMMENT a moderator removed (LINE-REMOVED). */
export function withoutComment(lines: readonly ChatLine[], timetoken: string): ChatLine[] {
  const key = `COMMENT:${timetoken}`;
  return lines.some((l) => l.key === key) ? lines.filter((l) => l.key !== key) : (lines as ChatLine[]);
}

export function appendLines(lines: readonly ChatLine[], added: readonly ChatLine[]): ChatLine[] {
  if (added.length === 0) return lines as ChatLine[];
  const keys = new Set(lines.map((l) => l.key));
  const fresh = added.filter((l) => !keys.has(l.key));
  if (fresh.length === 0) return lines as ChatLine[];
  const next = [...lines, ...fresh];
  return next.length > MAX_LINES ? next.slice(next.length - MAX_LINES) : next;
}

/**
 * The list after a (re)subscribe: the server's history, then the lines we had that it does not
 * carry and that came after it (tips and system lines, or lines newer than the history).
 */
export function mergeHistory(lines: readonly ChatLine[], history: readonly ChatLine[]): ChatLine[] {
  const keys = new Set(history.map((l) => l.key));
  const lastHistorySeq = Math.max(0, ...lines.filter((l) => keys.has(l.key)).map((l) => l.seq));
  const kept = lines.filter((l) => !keys.has(l.key) && l.seq > lastHistorySeq && l.kind !== 'comment');
  return appendLines(history, kept);
}

/** Shown where a reconnected page could not be given every line it missed (more than the server replays). */
export const SKIPPED_LINES_TEXT = 'Some messages were skipped while you were reconnecting.';

/**
 * The list after a resubscription that replayed what the page missed: the lines it had, then the
 * replayed ones it does not have yet, after a note when the server skipped some.
 */
export function appendReplay(lines: readonly ChatLine[], replayed: readonly ChatLine[], skipped: boolean): ChatLine[] {
  return appendLines(lines, skipped ? [systemLine(SKIPPED_LINES_TEXT), ...replayed] : replayed);
}

/** The text as sent: trimmed and cut at 300 characters (spec part 1 §5 Chat message). */
export function chatTextToSend(raw: string): string {
  return [...raw.trim()].slice(0, CHAT_TEXT_MAX).join('');
}

/** navigator.language's short code (pt-BR → pt), or en when there is none. */
export function browserLanguage(language: string | undefined): string {
  const short = (language ?? '').split('-')[0]?.toLowerCase() ?? '';
  return /^[a-z]{2,3}$/.test(short) ? short : 'en';
}

/** A translation worth showing under the original: present and not the same text. */
export function showsTranslation(original: string, translated: string | undefined): translated is string {
  return !!translated && translated.trim().toLowerCase() !== original.trim().toLowerCase();
}

/**
 * A replay's chat: the broadcast's stored lines, each at its place in the video, loaded page by page a
 * little ahead of the playhead and shown up to it. Pure: the hook (use-replay-chat.ts) feeds it the
 * video's time and the pages the server answers.
 */
import type { HistoryMessage } from '../../../common/realtime';
import { MAX_LINES, toChatLine } from './chat-lines';
import type { ChatLine } from './chat-lines';

/** The chat is loaded this far past the playhead: the next page is asked for once less is left. */
export const REPLAY_AHEAD_MS = 120_000;
/** A seek this far past what is loaded goes on loading from there; a longer jump starts over near the new place. */
export const REPLAY_CATCH_UP_MS = 300_000;
/** Starting over at a place, the chat shows what was said this long before it. */
export const REPLAY_BACKLOG_MS = 300_000;
/** Lines kept in memory; past this the oldest go (and seeking back before them loads them again). */
export const REPLAY_KEPT_LINES = 2_000;

export interface ReplayLine {
  /** Its place in the video, in milliseconds from the broadcast's start. */
  offsetMs: number;
  line: ChatLine;
}

/** One answer of the replay chat call. */
export interface ReplayPage {
  lines: ReadonlyArray<{ offset_ms: number; message: HistoryMessage }>;
  next_from_ms: number | null;
}

/**
 * What is known of the chat: one unbroken stretch of the video, from `from` to `next` (every line in it
 * is in `lines`, oldest first, each key once); `next` is where to ask from for the rest, null once the
 * broadcast's last line is in.
 */
export interface ReplayChat {
  lines: readonly ReplayLine[];
  from: number;
  next: number | null;
}

/** Nothing loaded yet: the stretch starts (empty) at `at`. */
export const replayChatFrom = (at = 0): ReplayChat => ({ lines: [], from: at, next: at });

/** Where to ask from now, at `timeMs` into the video: null while enough lies ahead (or everything is in). */
export function pageToFetch(chat: ReplayChat, timeMs: number): number | null {
  if (chat.next === null || chat.next > timeMs + REPLAY_AHEAD_MS) return null;
  return chat.next;
}

/**
 * The chat with the page asked for from `askedFrom`; a page for another place (asked before a seek moved
 * the stretch) changes nothing. A line the previous page ended on may come again: lines are keyed.
 */
export function withPage(chat: ReplayChat, askedFrom: number, page: ReplayPage): ReplayChat {
  if (chat.next !== askedFrom) return chat;
  const keys = new Set(chat.lines.map((l) => l.line.key));
  const added: ReplayLine[] = [];
  for (const { offset_ms, message } of page.lines) {
    const line = toChatLine(message);
    if (!line || keys.has(line.key)) continue;
    keys.add(line.key);
    added.push({ offsetMs: offset_ms, line });
  }
  // A page that ends where it began (a full page said in one instant) must not be asked for again.
  const next = page.next_from_ms === null ? null : Math.max(page.next_from_ms, askedFrom + 1);
  return trimmed({ lines: added.length > 0 ? [...chat.lines, ...added] : chat.lines, from: chat.from, next });
}

/** Keeps the newest REPLAY_KEPT_LINES; the stretch then starts at the oldest line kept. */
function trimmed(chat: ReplayChat): ReplayChat {
  if (chat.lines.length <= REPLAY_KEPT_LINES) return chat;
  const from = (chat.lines[chat.lines.length - REPLAY_KEPT_LINES] as ReplayLine).offsetMs;
  return { ...chat, lines: chat.lines.filter((l) => l.offsetMs >= from), from };
}

/**
 * The chat after the video moved to `timeMs` (a seek, or a new start): kept while the place is in the
 * stretch or a little past its end (loading goes on from there); otherwise it starts over a little
 * before the place, so the lines said just before it show too.
 */
export function afterSeek(chat: ReplayChat, timeMs: number): ReplayChat {
  if (timeMs >= chat.from && (chat.next === null || timeMs <= chat.next + REPLAY_CATCH_UP_MS)) return chat;
  return replayChatFrom(Math.max(0, timeMs - REPLAY_BACKLOG_MS));
}

/** How many of the lines are said at or before `timeMs`. */
export function countUpTo(lines: readonly ReplayLine[], timeMs: number): number {
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((lines[mid] as ReplayLine).offsetMs <= timeMs) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The lines the chat shows when the first `count` are said: the newest MAX_LINES of them. */
export function shownLines(lines: readonly ReplayLine[], count: number): ChatLine[] {
  return lines.slice(Math.max(0, count - MAX_LINES), count).map((l) => l.line);
}

/**
 * What a conversation's page shows, from the pages read (newest first, each oldest first) and the frames
 * of the member's own channel: the messages once each in order, who the partner is, where Seen goes, the
 * list's unread counts, when a typing member is announced and for how long they show as typing.
 */
import type { ConversationSummary, DirectMessage } from '../../../common/api/messages';
import { DM } from '../../../common/rules/messages';

/** One answer of GET /api/messages/thread as cached: the part these rules read. */
export interface ThreadPage {
  messages: DirectMessage[];
  more: boolean;
  partner_read_id: number;
}

/** The thread's pages as the infinite query holds them: the newest page first, the earlier ones after it. */
export interface ThreadPages<P extends ThreadPage = ThreadPage, Q = unknown> {
  pages: P[];
  pageParams: Q[];
}

/** The page before `page`: its first message's id, while the server has more. */
export function earlierCursor(page: ThreadPage): number | undefined {
  const first = page.messages[0];
  return page.more && first ? first.id : undefined;
}

/** Every message read and received, once each, oldest first. */
export function threadMessages(pages: readonly ThreadPage[]): DirectMessage[] {
  const byId = new Map<number, DirectMessage>();
  for (const page of pages) for (const message of page.messages) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/** A message sent or received while the thread is open joins the newest page (once, in its place). */
export function withMessage<P extends ThreadPage, Q>(data: ThreadPages<P, Q>, message: DirectMessage): ThreadPages<P, Q> {
  const [newest, ...rest] = data.pages;
  if (!newest || data.pages.some((page) => page.messages.some((m) => m.id === message.id))) return data;
  const messages = [...newest.messages, message].sort((a, b) => a.id - b.id);
  return { ...data, pages: [{ ...newest, messages }, ...rest] };
}

/** A message seen anew (unlocked, or looked up with its addresses signed): it takes the place of the one held, if any. */
export function withMessageUpdated<P extends ThreadPage, Q>(data: ThreadPages<P, Q>, message: DirectMessage): ThreadPages<P, Q> {
  if (!data.pages.some((page) => page.messages.some((m) => m.id === message.id))) return withMessage(data, message);
  return { ...data, pages: data.pages.map((page) => ({ ...page, messages: page.messages.map((m) => (m.id === message.id ? message : m)) })) };
}

/** The partner read up to `lastReadId` (a DM-READ frame): it never goes back. */
export function withPartnerRead<P extends ThreadPage, Q>(data: ThreadPages<P, Q>, lastReadId: number): ThreadPages<P, Q> {
  if (partnerReadId(data.pages) >= lastReadId) return data;
  return { ...data, pages: data.pages.map((page) => ({ ...page, partner_read_id: lastReadId })) };
}

/** How far the partner read, as the newest answer or frame says. */
export function partnerReadId(pages: readonly ThreadPage[]): number {
  return pages.reduce((most, page) => Math.max(most, page.partner_read_id), 0);
}

/** The message under which Seen shows: the caller's last one, once the partner has read it; null otherwise. */
export function seenMessageId(messages: readonly DirectMessage[], myId: number, readId: number): number | null {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i]!;
    if (message.sender_id === myId) return readId >= message.id ? message.id : null;
  }
  return null;
}

/** The other member of a message's conversation, seen from `myId`. */
export function partnerOf(message: DirectMessage, myId: number): number {
  return message.sender_id === myId ? message.recipient_id : message.sender_id;
}

/** One page of the conversation list, as cached. */
export interface ConversationPage {
  conversations: ConversationSummary[];
  total: number;
}

/** The list's next page: its offset, while the server has more than the pages hold. */
export function nextOffset(last: ConversationPage, pages: readonly ConversationPage[]): number | undefined {
  const loaded = pages.reduce((sum, page) => sum + page.conversations.length, 0);
  return last.conversations.length > 0 && loaded < last.total ? loaded : undefined;
}

/** The conversations of every page, once each (a conversation that moved up between two reads shows where it was read first). */
export function listedConversations(pages: readonly ConversationPage[]): ConversationSummary[] {
  const seen = new Set<number>();
  return pages.flatMap((page) => page.conversations).filter((c) => !seen.has(c.partner.user_id) && seen.add(c.partner.user_id));
}

/** The caller read their conversation with `partnerId`: nothing unread in it any more. */
export function withConversationRead(page: ConversationPage, partnerId: number): ConversationPage {
  if (!page.conversations.some((c) => c.partner.user_id === partnerId && c.unread > 0)) return page;
  return { ...page, conversations: page.conversations.map((c) => (c.partner.user_id === partnerId ? { ...c, unread: 0 } : c)) };
}

/** A message's text as one line of the list: its first line, without the spaces around it. */
export function firstLine(text: string): string {
  return text.trim().split(/\r?\n/, 1)[0]!.trim();
}

/** A message as the conversation list previews it: its first line, or what it carries when it has no words. */
export function previewOf(message: Pick<DirectMessage, 'text' | 'media' | 'price'>): string {
  const words = firstLine(message.text);
  if (words || !message.media) return words;
  const what = message.media.type === 'video' ? 'Video' : 'Photo';
  return message.price > 0 ? `${what} · ${message.price} coins` : what;
}

/** The composer's count of characters left (as the server counts them: code points), and whether to show it. */
export function charactersLeft(text: string): { left: number; shown: boolean } {
  const left = DM.textMax - [...text.trim()].length;
  return { left, shown: left <= COUNTER_FROM };
}

/** The counter shows from this many characters left. */
export const COUNTER_FROM = 100;

/**
 * Whether to tell the partner the member is typing now: at most once every DM.typingEveryMs, and only
 * while there is something typed. `last` is when it was last told (0: never).
 */
export function typingDue(last: number, now: number, typed: string): boolean {
  return typed.trim() !== '' && now - last >= DM.typingEveryMs;
}

/** Until when the partner shows as typing after a DM-TYPING frame at `now` (a message from them ends it sooner). */
export const typingUntil = (now: number): number => now + DM.typingShownMs;

/** The unread badge's text: nothing at 0, the count up to 99, then 99+. */
export function badgeText(unread: number): string | null {
  if (!Number.isFinite(unread) || unread <= 0) return null;
  return unread > 99 ? '99+' : String(Math.floor(unread));
}

/** The top bar's envelope's accessible name, with the unread count when there is one. */
export function envelopeLabel(unread: number): string {
  const text = badgeText(unread);
  return text ? `Messages, ${text} unread` : 'Messages';
}

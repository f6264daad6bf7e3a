import { describe, expect, it } from 'vitest';
import type { ConversationSummary, DirectMessage } from '../../../common/api/messages';
import { DM } from '../../../common/rules/messages';
import {
  badgeText, charactersLeft, earlierCursor, envelopeLabel, firstLine, listedConversations, nextOffset, partnerOf, partnerReadId, seenMessageId,
  threadMessages, typingDue, typingUntil, withConversationRead, withMessage, withMessageUpdated, withPartnerRead, previewOf,
} from './thread-state';
import type { ConversationPage, ThreadPage, ThreadPages } from './thread-state';

const ME = 1;
const PARTNER = 2;
const message = (id: number, from = PARTNER): DirectMessage => ({
  id,
  sender_id: from,
  recipient_id: from === ME ? PARTNER : ME,
  text: `message ${id}`,
  time: new Date(Date.UTC(2026, 10, 30, 10, id)).toISOString(),
  media: null,
  price: 0,
  unlocked: false,
});
const page = (ids: number[], more = false, partner_read_id = 0, from?: number): ThreadPage => ({ messages: ids.map((id) => message(id, from)), more, partner_read_id });
const pages = (...list: ThreadPage[]): ThreadPages => ({ pages: list, pageParams: list.map((_, i) => (i === 0 ? undefined : i)) });
const ids = (messages: DirectMessage[]) => messages.map((m) => m.id);

describe('a conversation’s preview', () => {
  it('shows the first line, or what the message carries when it has no words', () => {
    const video = { media_id: 3, type: 'video' as const, state: 'ready' as const, width: 640, height: 360, duration: 4, url: null, thumb_url: null };
    expect(previewOf({ ...message(1), text: 'Hello\nthere' })).toBe('Hello');
    expect(previewOf({ ...message(1), text: '', media: video, price: 50 })).toBe('Video · 50 coins');
    expect(previewOf({ ...message(1), text: '', media: { ...video, type: 'image' }, price: 0 })).toBe('Photo');
  });
});

describe('a thread read page by page', () => {
  it('puts a message seen anew in the place of the one held, and adds one it did not hold', () => {
    const unlocked = { ...message(8), price: 50, unlocked: true };
    const updated = withMessageUpdated(pages(page([7, 8, 9]), page([4, 5])), unlocked);
    expect(updated.pages[0]!.messages[1]).toBe(unlocked);
    expect(ids(threadMessages(updated.pages))).toEqual([4, 5, 7, 8, 9]);
    expect(ids(threadMessages(withMessageUpdated(pages(page([7, 8])), message(10)).pages))).toEqual([7, 8, 10]);
  });

  it('asks for the page before the first message while the server has more', () => {
    expect(earlierCursor(page([7, 8, 9], true))).toBe(7);
    expect(earlierCursor(page([7, 8, 9], false))).toBeUndefined();
    expect(earlierCursor(page([], true))).toBeUndefined();
  });

  it('shows every page oldest first, each message once', () => {
    // The newest page first, then the earlier ones; a message sent between two reads can be in both.
    expect(ids(threadMessages([page([7, 8, 9]), page([4, 5, 6, 7])]))).toEqual([4, 5, 6, 7, 8, 9]);
    expect(threadMessages([])).toEqual([]);
  });

  it('adds a live message to the newest page once, in its place', () => {
    const data = pages(page([7, 8]), page([5, 6]));
    const added = withMessage(data, message(9));
    expect(ids(added.pages[0]!.messages)).toEqual([7, 8, 9]);
    expect(added.pages[1]).toBe(data.pages[1]);
    // The echo of a sent message (the DM frame after the answer, or the other way round) changes nothing.
    expect(withMessage(added, message(9))).toBe(added);
    expect(withMessage(data, message(6))).toBe(data);
    // Two messages crossing: the later id goes last whatever came first.
    expect(ids(withMessage(withMessage(data, message(11)), message(10)).pages[0]!.messages)).toEqual([7, 8, 10, 11]);
  });

  it('adds the first message to an empty conversation', () => {
    expect(ids(withMessage(pages(page([])), message(1, ME)).pages[0]!.messages)).toEqual([1]);
    const none = { pages: [], pageParams: [] };
    expect(withMessage(none, message(1))).toBe(none);
  });
});

describe('Seen', () => {
  const thread = [message(1, ME), message(2), message(3, ME), message(4, ME), message(5)];

  it('goes under the member’s last message once the partner has read up to it', () => {
    expect(seenMessageId(thread, ME, 4)).toBe(4);
    expect(seenMessageId(thread, ME, 5)).toBe(4);
  });

  it('is not shown while the partner has read only earlier messages, or when the member wrote nothing', () => {
    expect(seenMessageId(thread, ME, 3)).toBeNull();
    expect(seenMessageId(thread, ME, 0)).toBeNull();
    expect(seenMessageId([message(2), message(5)], ME, 5)).toBeNull();
    expect(seenMessageId([], ME, 9)).toBeNull();
  });

  it('moves forward with DM-READ frames and never back', () => {
    const data = pages(page([3, 4], false, 2, ME), page([1, 2], false, 2));
    const read = withPartnerRead(data, 4);
    expect(partnerReadId(read.pages)).toBe(4);
    expect(seenMessageId(threadMessages(read.pages), ME, partnerReadId(read.pages))).toBe(4);
    expect(withPartnerRead(read, 3)).toBe(read);
    expect(partnerReadId([])).toBe(0);
  });

  it('knows the partner of a message whoever sent it', () => {
    expect(partnerOf(message(1, ME), ME)).toBe(PARTNER);
    expect(partnerOf(message(2, PARTNER), ME)).toBe(PARTNER);
  });
});

describe('the conversation list', () => {
  const summary = (partner: number, unread = 0): ConversationSummary => ({
    partner: { user_id: partner, username: `member${partner}`, avatar: null },
    last_message: { ...message(partner), sender_id: partner, recipient_id: ME },
    unread,
  });
  const listPage = (partners: number[], total: number, unread = 0): ConversationPage => ({ conversations: partners.map((p) => summary(p, unread)), total });

  it('reads the next page from where the loaded ones end, while there are more', () => {
    const first = listPage([2, 3], 5);
    expect(nextOffset(first, [first])).toBe(2);
    const second = listPage([4, 5, 6], 5);
    expect(nextOffset(second, [first, second])).toBeUndefined();
    // A list that shrank under the pages asks no more.
    expect(nextOffset(listPage([], 9), [first, listPage([], 9)])).toBeUndefined();
  });

  it('lists a conversation once though it moved from one page to the next between reads', () => {
    expect(listedConversations([listPage([2, 3], 4), listPage([3, 4], 4)]).map((c) => c.partner.user_id)).toEqual([2, 3, 4]);
  });

  it('clears the count of a conversation read, leaving a page without it as it was', () => {
    const before = listPage([2, 3], 2, 4);
    const after = withConversationRead(before, 3);
    expect(after.conversations.map((c) => c.unread)).toEqual([4, 0]);
    expect(withConversationRead(after, 3)).toBe(after);
    expect(withConversationRead(before, 9)).toBe(before);
  });

  it('cuts a message to its first line', () => {
    expect(firstLine('  Loved the show tonight!  ')).toBe('Loved the show tonight!');
    expect(firstLine('first line\nsecond line')).toBe('first line');
    expect(firstLine('\r\n  after a blank line\r\nmore')).toBe('after a blank line');
  });
});

describe('the composer', () => {
  it('counts the characters left as the server does (code points) and shows the count near the limit', () => {
    expect(charactersLeft('hello')).toEqual({ left: DM.textMax - 5, shown: false });
    expect(charactersLeft('x'.repeat(DM.textMax - 100))).toEqual({ left: 100, shown: true });
    expect(charactersLeft('😀'.repeat(DM.textMax))).toEqual({ left: 0, shown: true });
    expect(charactersLeft('x'.repeat(DM.textMax + 3))).toEqual({ left: -3, shown: true });
    // Spaces around the text are not sent.
    expect(charactersLeft(`  ${'x'.repeat(DM.textMax)}  `).left).toBe(0);
  });
});

describe('typing', () => {
  it('tells the partner at most every DM.typingEveryMs, and only with something typed', () => {
    expect(typingDue(0, 10_000, 'h')).toBe(true);
    expect(typingDue(10_000, 10_000 + DM.typingEveryMs - 1, 'he')).toBe(false);
    expect(typingDue(10_000, 10_000 + DM.typingEveryMs, 'hel')).toBe(true);
    expect(typingDue(0, 10_000, '   ')).toBe(false);
  });

  it('shows the partner typing for DM.typingShownMs after their frame', () => {
    expect(typingUntil(5_000)).toBe(5_000 + DM.typingShownMs);
  });
});

describe('the envelope', () => {
  it('says nothing at 0, the count up to 99, then 99+', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(-1)).toBeNull();
    expect(badgeText(Number.NaN)).toBeNull();
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });

  it('is named with the unread count when there is one', () => {
    expect(envelopeLabel(0)).toBe('Messages');
    expect(envelopeLabel(3)).toBe('Messages, 3 unread');
    expect(envelopeLabel(1000)).toBe('Messages, 99+ unread');
  });
});

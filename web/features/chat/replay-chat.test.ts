import { describe, expect, it } from 'vitest';
import { sampleComment as comment, sampleTip as tip } from '../../../common/testing/realtime-samples';
import { MAX_LINES } from './chat-lines';
import { afterSeek, countUpTo, pageToFetch, REPLAY_AHEAD_MS, REPLAY_BACKLOG_MS, REPLAY_CATCH_UP_MS, REPLAY_KEPT_LINES, replayChatFrom, shownLines, withPage } from './replay-chat';
import type { ReplayChat, ReplayPage } from './replay-chat';

const said = (offset_ms: number, text = `at ${offset_ms}`) => ({ offset_ms, message: comment(text, String(offset_ms)) });
const page = (lines: ReplayPage['lines'], next_from_ms: number | null = null): ReplayPage => ({ lines, next_from_ms });
const texts = (chat: ReplayChat, timeMs: number) => shownLines(chat.lines, countUpTo(chat.lines, timeMs)).map((l) => l.text);

describe('the lines shown at a time', () => {
  const chat = withPage(replayChatFrom(), 0, page([said(1_000, 'hello'), { offset_ms: 4_000, message: tip(20, '40') }, said(9_000, 'bye')]));

  it('are those said at or before it, oldest first', () => {
    expect(texts(chat, 0)).toEqual([]);
    expect(texts(chat, 999)).toEqual([]);
    expect(texts(chat, 1_000)).toEqual(['hello']);
    expect(texts(chat, 5_000)).toEqual(['hello', 'Sent 20 Coins!!']);
    expect(texts(chat, 60_000)).toEqual(['hello', 'Sent 20 Coins!!', 'bye']);
  });

  it('move back with the video', () => {
    expect(texts(afterSeek(chat, 60_000), 60_000)).toHaveLength(3);
    expect(texts(afterSeek(chat, 0), 0)).toEqual([]);
    expect(afterSeek(chat, 0)).toBe(chat);
  });

  it('are the newest MAX_LINES when more were said', () => {
    const many = withPage(replayChatFrom(), 0, page(Array.from({ length: MAX_LINES + 5 }, (_, i) => said(i * 10))));
    const shown = texts(many, 1_000_000);
    expect(shown).toHaveLength(MAX_LINES);
    expect(shown[0]).toBe('at 50');
  });
});

describe('loading ahead of the playhead', () => {
  it('asks from the start, then for the next page once the playhead nears what is loaded', () => {
    let chat = replayChatFrom();
    expect(pageToFetch(chat, 0)).toBe(0);
    chat = withPage(chat, 0, page([said(1_000), said(200_000)], 200_000));
    expect(pageToFetch(chat, 0)).toBeNull();
    expect(pageToFetch(chat, 200_000 - REPLAY_AHEAD_MS - 1)).toBeNull();
    expect(pageToFetch(chat, 200_000 - REPLAY_AHEAD_MS)).toBe(200_000);
    // The line the page ended on comes again: it is kept once.
    chat = withPage(chat, 200_000, page([said(200_000), said(250_000)]));
    expect(chat.lines.map((l) => l.offsetMs)).toEqual([1_000, 200_000, 250_000]);
    expect(chat.next).toBeNull();
    expect(pageToFetch(chat, 250_000)).toBeNull();
  });

  it('takes no page asked for another place', () => {
    const chat = withPage(replayChatFrom(), 0, page([said(1_000)], 5_000));
    expect(withPage(chat, 0, page([said(1_000)], 5_000))).toBe(chat);
    expect(withPage(chat, 700_000, page([said(800_000)]))).toBe(chat);
  });

  it('moves on past a full page said in one instant', () => {
    const chat = withPage(replayChatFrom(), 0, page([said(3_000, 'a'), { offset_ms: 3_000, message: comment('b', '3001') }], 3_000));
    expect(withPage(chat, 3_000, page([{ offset_ms: 3_000, message: comment('b', '3001') }], 3_000)).next).toBe(3_001);
  });

  it('keeps the newest lines only, and the stretch starts at the oldest kept', () => {
    const chat = withPage(replayChatFrom(), 0, page(Array.from({ length: REPLAY_KEPT_LINES + 10 }, (_, i) => said(i * 100)), REPLAY_KEPT_LINES * 100 + 900));
    expect(chat.lines).toHaveLength(REPLAY_KEPT_LINES);
    expect(chat.from).toBe(1_000);
    // Seeking back before it starts over there.
    expect(afterSeek(chat, 500)).toEqual(replayChatFrom(0));
  });
});

describe('after a seek', () => {
  const chat = withPage(replayChatFrom(), 0, page([said(1_000), said(100_000)], 100_000));

  it('keeps what is loaded and goes on from its end when the place is in it or a little past it', () => {
    expect(afterSeek(chat, 50_000)).toBe(chat);
    const ahead = afterSeek(chat, 100_000 + REPLAY_CATCH_UP_MS);
    expect(ahead).toBe(chat);
    expect(pageToFetch(ahead, 100_000 + REPLAY_CATCH_UP_MS)).toBe(100_000);
  });

  it('starts over a little before a place far ahead, then loads from there', () => {
    const far = 3_600_000;
    const moved = afterSeek(chat, far);
    expect(moved).toEqual(replayChatFrom(far - REPLAY_BACKLOG_MS));
    expect(pageToFetch(moved, far)).toBe(far - REPLAY_BACKLOG_MS);
    const loaded = withPage(moved, far - REPLAY_BACKLOG_MS, page([said(far - 60_000, 'before'), said(far + 1_000, 'after')], far + 1_000));
    expect(texts(loaded, far)).toEqual(['before']);
    // A page asked for before the seek no longer fits.
    expect(withPage(loaded, 100_000, page([said(150_000)]))).toBe(loaded);
    // Back at the start: loaded again from there.
    expect(afterSeek(loaded, 0)).toEqual(replayChatFrom(0));
  });

  it('keeps everything once the last line is in', () => {
    const all = withPage(replayChatFrom(), 0, page([said(1_000)]));
    expect(afterSeek(all, 10_000_000)).toBe(all);
  });
});

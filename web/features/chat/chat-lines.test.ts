import { describe, expect, it } from 'vitest';
import { SAMPLE_OF_EACH_TYPE, sampleComment as comment, sampleSender, sampleTip as tip } from '../../../common/testing/realtime-samples';
import { announcedLines, appendLines, appendReplay, browserLanguage, chatTextToSend, interleave, isServiceMessage, localLineSeq, mergeHistory, showsTranslation, SKIPPED_LINES_TEXT, systemLine, toChatLine, withoutComment } from './chat-lines';
import { FULL_EMOJI, REDUCED_EMOJI, insertAt } from './emoji';

describe('withoutComment', () => {
  it('drops the comment a moderator removed, and leaves a tip of the same timetoken and the list without it alone', () => {
    const lines = [toChatLine(comment('rude', '7'))!, toChatLine(tip(5))!, toChatLine(comment('kind', '8'))!];
    expect(withoutComment(lines, '7').map((l) => l.text)).toEqual(['Sent 5 Coins!!', 'kind']);
    expect(withoutComment(lines, '99')).toBe(lines);
    const tipLine = toChatLine(tip(5))!;
    expect(withoutComment([tipLine], tipLine.timetoken!)).toEqual([tipLine]);
  });
});

describe('toChatLine', () => {
  it('makes comment lines with the sender and skips empty or non-chat messages', () => {
    expect(toChatLine(comment('hi', '7'))).toMatchObject({ key: 'COMMENT:7', kind: 'comment', text: 'hi', name: 'Ann', userId: 1000001 });
    expect(toChatLine({ ...comment('hi', '8'), sender: sampleSender({ name: '' }) })).toMatchObject({ name: 'Someone' });
    expect(toChatLine(SAMPLE_OF_EACH_TYPE.LIKE)).toBeNull();
    expect(toChatLine(SAMPLE_OF_EACH_TYPE['STREAM-END'])).toBeNull();
  });

  it("makes tip lines 'Sent N Coins!!' from data.recipient_amount", () => {
    expect(toChatLine(tip(1000))).toMatchObject({ kind: 'tip', text: 'Sent 1,000 Coins!!', tipAmount: 1000 });
  });

  it("adds the tipper's message, quoted, after 'Sent N Coins!!'", () => {
    const withMessage = tip(15);
    const line = toChatLine({ ...withMessage, data: { ...withMessage.data, message: 'Great show!' } });
    expect(line).toMatchObject({ kind: 'tip', text: 'Sent 15 Coins!! “Great show!”', tipAmount: 15 });
  });

  it("names the tip menu's action a tip bought, apart from the text", () => {
    const bought = tip(50);
    const line = toChatLine({ ...bought, data: { ...bought.data, menu_item: 'Sing a song', message: 'For you' } });
    expect(line).toMatchObject({ kind: 'tip', text: 'Sent 50 Coins!! “For you”', request: 'Sing a song' });
    expect(toChatLine(tip(50))?.request).toBeUndefined();
  });
});

describe('announcedLines', () => {
  it("announces each goal a GOAL message reached, said by no one, once per goal", () => {
    const goal = SAMPLE_OF_EACH_TYPE.GOAL;
    const second = { ...goal.data.reached[0]!, goal_id: 9, description: 'Dance' };
    const lines = announcedLines({ ...goal, data: { ...goal.data, reached: [...goal.data.reached, second] } });
    expect(lines.map((l) => [l.key, l.kind, l.text, l.name, l.userId])).toEqual([
      ['GOAL:7', 'system', 'Goal reached: New song', '', null],
      ['GOAL:9', 'system', 'Goal reached: Dance', '', null],
    ]);
    expect(appendLines(lines, announcedLines(goal))).toHaveLength(2);
  });

  it('announces nothing for a goal that moved without being reached, nor for other messages', () => {
    expect(announcedLines({ ...SAMPLE_OF_EACH_TYPE.GOAL, data: { ...SAMPLE_OF_EACH_TYPE.GOAL.data, reached: [] } })).toEqual([]);
    expect(announcedLines(comment('hi'))).toEqual([]);
    expect(toChatLine(SAMPLE_OF_EACH_TYPE.GOAL)).toBeNull();
  });
});

describe('isServiceMessage', () => {
  it('passes the types the stream page reacts to', () => {
    const service = Object.values(SAMPLE_OF_EACH_TYPE).filter(isServiceMessage).map((m) => m.type);
    expect(service).toEqual(['TIP', 'TIP-ENFORCE', 'STREAM-END', 'STREAM-OPTIONS', 'BLOCKED']);
  });
});

describe('line lists', () => {
  it('appends without duplicates', () => {
    const a = toChatLine(comment('a', '1'))!;
    const b = toChatLine(comment('b', '2'))!;
    expect(appendLines([a], [toChatLine(comment('a', '1'))!, b]).map((l) => l.text)).toEqual(['a', 'b']);
  });

  it('takes the history after a reconnect and keeps later tips and system lines', () => {
    const a = toChatLine(comment('a', '1'))!;
    const note = systemLine('Chat is disabled for this stream.');
    const history = [toChatLine(comment('a', '1'))!, toChatLine(comment('b', '2'))!];
    expect(mergeHistory([a, note], history).map((l) => l.text)).toEqual(['a', 'b', 'Chat is disabled for this stream.']);
  });
});

describe('tips in the history', () => {
  it('keeps a comment and a tip whose ids are the same number apart (chat ids and transfer ids)', () => {
    const lines = appendLines([toChatLine(comment('a', '5'))!], [toChatLine(tip(10, '5'))!]);
    expect(lines.map((l) => l.key)).toEqual(['COMMENT:5', 'TIP:5']);
  });

  it('does not show twice a tip seen live and then carried by the history', () => {
    const live = [toChatLine(comment('a', '1'))!, toChatLine(tip(10, '1'))!];
    const history = [toChatLine(comment('a', '1'))!, toChatLine(tip(10, '1'))!, toChatLine(comment('b', '2'))!];
    expect(mergeHistory(live, history).map((l) => l.key)).toEqual(['COMMENT:1', 'TIP:1', 'COMMENT:2']);
  });
});

describe('a replay after a reconnect', () => {
  it('keeps every line the page had and adds the missed ones after them, once', () => {
    const had = [toChatLine(comment('a', '1'))!, toChatLine(tip(10, '3'))!, toChatLine(comment('b', '2'))!];
    const replayed = [toChatLine(comment('b', '2'))!, toChatLine(comment('c', '4'))!, toChatLine(tip(20, '5'))!];
    expect(appendReplay(had, replayed, false).map((l) => l.key)).toEqual(['COMMENT:1', 'TIP:3', 'COMMENT:2', 'COMMENT:4', 'TIP:5']);
  });

  it('says where lines were skipped when the server could not replay them all', () => {
    const lines = appendReplay([toChatLine(comment('a', '1'))!], [toChatLine(comment('z', '900'))!], true);
    expect(lines.map((l) => [l.kind, l.text])).toEqual([['comment', 'a'], ['system', SKIPPED_LINES_TEXT], ['comment', 'z']]);
  });
});

describe('chat input rules', () => {
  it('trims and cuts at 300 characters', () => {
    expect(chatTextToSend('  hi  ')).toBe('hi');
    expect(chatTextToSend('x'.repeat(400))).toHaveLength(300);
  });

  it('inserts emoji at the caret within the limit', () => {
    expect(insertAt('ab', '🔥', 1, 1, 300)).toEqual({ text: 'a🔥b', caret: 3 });
    expect(insertAt('x'.repeat(300), '🔥', 0, 0, 300).text).toHaveLength(300);
  });

  it('offers a reduced emoji set inside the full one', () => {
    expect(REDUCED_EMOJI.length).toBeLessThan(FULL_EMOJI.length);
    expect(REDUCED_EMOJI.every((e) => (FULL_EMOJI as readonly string[]).includes(e))).toBe(true);
  });
});

describe('translation', () => {
  it('uses the short browser language', () => {
    expect(browserLanguage('pt-BR')).toBe('pt');
    expect(browserLanguage(undefined)).toBe('en');
  });

  it('shows a translation only when it differs', () => {
    expect(showsTranslation('Hello', 'hello')).toBe(false);
    expect(showsTranslation('Hola', 'Hello')).toBe(true);
    expect(showsTranslation('Hola', undefined)).toBe(false);
  });
});

describe('the page\'s own lines', () => {
  it('take their place among the channel\'s lines in the order they arrived', () => {
    const first = systemLine('first');
    const ad = { key: 'ad:1', seq: localLineSeq() };
    const second = systemLine('second');
    const later = { key: 'ad:2', seq: localLineSeq() };
    const order = interleave([first, second], [later, ad]).map((item) => ('line' in item ? item.line.text : item.local.key));
    expect(order).toEqual(['first', 'ad:1', 'second', 'ad:2']);
  });

  it('stand alone when the channel has no lines yet', () => {
    expect(interleave([], [{ key: 'ad:3', seq: localLineSeq() }])).toHaveLength(1);
    expect(interleave([systemLine('only')], [])).toHaveLength(1);
  });
});

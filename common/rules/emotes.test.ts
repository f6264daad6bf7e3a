import { describe, expect, it } from 'vitest';
import { EMOTE_CODE, emoteCodesIn, splitEmotes } from './emotes';

describe('emotes in a chat line', () => {
  it('finds each code written as :code: once, in order', () => {
    expect(emoteCodesIn('so :hype: much :hype: and :love2:!')).toEqual(['hype', 'love2']);
    expect(emoteCodesIn('time 10:30:45, :ab: :Hype: :x-y:')).toEqual([]);
  });

  it('draws only the known codes, keeping the text around them', () => {
    const known = { hype: '/media/emotes/1.webp' };
    expect(splitEmotes('go :hype: go :other: :hype:', known)).toEqual([
      { text: 'go ' }, { code: 'hype', url: '/media/emotes/1.webp' }, { text: ' go :other: ' }, { code: 'hype', url: '/media/emotes/1.webp' },
    ]);
    expect(splitEmotes('plain', known)).toEqual([{ text: 'plain' }]);
  });

  it('takes codes of a lower-case letter then letters and digits, 3 to 20', () => {
    expect(['hype', 'abc', 'a1b2c3'].every((c) => EMOTE_CODE.test(c))).toBe(true);
    expect(['ab', '1abc', 'Hype', 'a'.repeat(21), 'hy-pe'].some((c) => EMOTE_CODE.test(c))).toBe(false);
  });
});

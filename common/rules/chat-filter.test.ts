import { describe, expect, it } from 'vitest';
import { blockedWordMatcher, hasLink } from './chat-filter';

describe('blockedWordMatcher', () => {
  const match = blockedWordMatcher(['spoiler', 'Bad Word', ' ', 'c++']);

  it('finds a blocked word whole, in any case', () => {
    expect(match('No SPOILER please')).toBe('spoiler');
    expect(match('that is a bad word!')).toBe('bad word');
    expect(match('I write C++ daily')).toBe('c++');
    expect(match('a bad   word, and more')).toBe('bad word');
  });

  it('leaves words that only contain one', () => {
    expect(match('spoilers are fine, unspoiler too')).toBeNull();
    expect(match('badword')).toBeNull();
  });

  it('matches nothing without words', () => {
    expect(blockedWordMatcher([])('anything')).toBeNull();
    expect(blockedWordMatcher(['  '])('anything')).toBeNull();
  });
});

describe('hasLink', () => {
  it('finds addresses', () => {
    for (const text of ['see https://example.org/x', 'www.example.net', 'go to mysite.com now', 'ftp://files', 'join discord.gg/abc']) {
      expect(hasLink(text), text).toBe(true);
    }
  });

  it('leaves ordinary text', () => {
    for (const text of ['hello there', 'it costs 3.50', 'well...done', 'e.g. this', 'version 1.2.3']) {
      expect(hasLink(text), text).toBe(false);
    }
  });
});

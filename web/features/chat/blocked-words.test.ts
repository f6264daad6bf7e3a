import { describe, expect, it } from 'vitest';
import { blockedWordsProblem, formatBlockedWords, parseBlockedWords } from './blocked-words';

describe('blocked words as typed', () => {
  it('are read one a line or separated by commas, each once', () => {
    expect(parseBlockedWords('spoiler\n  bad   word , Spoiler,\n\n,ends')).toEqual(['spoiler', 'bad word', 'ends']);
    expect(parseBlockedWords('')).toEqual([]);
  });

  it('are written one a line, and read back the same', () => {
    const words = ['spoiler', 'bad word'];
    expect(parseBlockedWords(formatBlockedWords(words))).toEqual(words);
  });

  it('are refused before sending when too many or too long', () => {
    expect(blockedWordsProblem(['ok'])).toBeNull();
    expect(blockedWordsProblem(Array.from({ length: 201 }, (_, i) => `w${i}`))).toBe('At most 200 blocked words');
    expect(blockedWordsProblem(['x'.repeat(41)])).toMatch(/longer than 40 characters/);
  });
});

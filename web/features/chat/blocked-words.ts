/** The blocked words as the broadcaster types them: one a line or separated by commas. */
import { CHAT_RULES } from '../../../common/rules/chat-filter';

/** The words of the text, trimmed, blanks dropped, each once whatever its case (the first writing kept). */
export function parseBlockedWords(text: string): string[] {
  const seen = new Set<string>();
  const words: string[] = [];
  for (const part of text.split(/[\n,]/u)) {
    const word = part.trim().replace(/\s+/gu, ' ');
    if (word === '' || seen.has(word.toLowerCase())) continue;
    seen.add(word.toLowerCase());
    words.push(word);
  }
  return words;
}

export const formatBlockedWords = (words: readonly string[]): string => words.join('\n');

/** What is wrong with the list before it is sent: too many words (`max`: a channel's, or the platform's), or one too long. */
export function blockedWordsProblem(words: readonly string[], max: number = CHAT_RULES.blockedWordsMax): string | null {
  if (words.length > max) return `At most ${max} blocked words`;
  const long = words.find((word) => [...word].length > CHAT_RULES.blockedWordMax);
  return long ? `“${long.slice(0, 20)}…” is longer than ${CHAT_RULES.blockedWordMax} characters` : null;
}

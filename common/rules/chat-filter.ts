/**
 * A channel's chat filters (decision 0081), the same on the server, which enforces them on every line, and
 * on the page, which says why before sending: words the broadcaster blocks, matched whole and without
 * regard to case, and links.
 */

/** Who may write in a channel's chat besides its owner. */
export const CHAT_AUDIENCES = ['everyone', 'followers', 'subscribers'] as const;
export type ChatAudience = (typeof CHAT_AUDIENCES)[number];
/** What a channel does with a line that has a link or a blocked word: refuse it, or hold it for a moderator to approve. */
export const CHAT_FILTER_ACTIONS = ['refuse', 'hold'] as const;
export type ChatFilterAction = (typeof CHAT_FILTER_ACTIONS)[number];
/**
 * A channel's chat rules' limits: slow mode's longest wait, blocked words and their length (the operator's
 * platform-wide list: `platformWordsMax`), the moderators a broadcaster appoints, and a time-out's longest.
 */
export const CHAT_RULES = {
  slowModeMaxSeconds: 300, blockedWordsMax: 200, blockedWordMax: 40, platformWordsMax: 1000, moderatorsMax: 50, timeOutMaxMinutes: 1440,
} as const;

/** An address: with a scheme, starting www., or a name with a dot and a common ending (example.com/x). */
const LINK = /(?:[a-z][a-z0-9+.-]*:\/\/|\bwww\.)\S|\b[\p{L}\p{N}-]+\.(?:com|net|org|io|me|tv|ly|gg|co|xyz|info|app|link|site|online|live|chat|to|ru|cc)\b/iu;

/** Most lines have neither a dot nor a colon: those are answered without the pattern. */
export const hasLink = (text: string): boolean => (text.includes('.') || text.includes(':')) && LINK.test(text);

const escapeForPattern = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORD_CHAR = /[\p{L}\p{N}]/u;
/** A letter or digit: ASCII by its code, anything else by the pattern. */
const isWordChar = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  if (code < 128) return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
  return WORD_CHAR.test(text[at]!);
};

/** The line's words, lower-cased, in order. */
function wordsOf(text: string): string[] {
  const lowered = text.toLowerCase();
  const found: string[] = [];
  let start = -1;
  for (let i = 0; i <= lowered.length; i += 1) {
    const inWord = i < lowered.length && isWordChar(lowered, i);
    if (inWord && start < 0) start = i;
    else if (!inWord && start >= 0) {
      found.push(lowered.slice(start, i));
      start = -1;
    }
  }
  return found;
}
/** An entry made of letters and digits only, its words one space apart: matched by looking its words up. */
const PLAIN = /^[\p{L}\p{N}]+(?: [\p{L}\p{N}]+)*$/u;

/**
 * The blocked words as one check: each matched whole (not inside a longer word), in any case; answers
 * the first found (lower-cased), or null. Blank entries are ignored. Entries of letters and digits (and
 * phrases of them) are looked up word by word in a set — a line costs its words, not the list's length;
 * the rare entry with other characters ("c++") is matched by a pattern.
 */
export function blockedWordMatcher(words: readonly string[]): (text: string) => string | null {
  const wanted = [...new Set(words.map((word) => word.trim().toLowerCase().replace(/\s+/gu, ' ')).filter(Boolean))];
  const phrases = new Set(wanted.filter((word) => PLAIN.test(word)));
  const longest = Math.max(0, ...[...phrases].map((phrase) => phrase.split(' ').length));
  const odd = wanted.filter((word) => !phrases.has(word));
  // Longest first, so a phrase is preferred to a word inside it.
  const pattern = odd.length === 0 ? null
    : new RegExp(`(?<![\\p{L}\\p{N}])(?:${odd.sort((a, b) => b.length - a.length).map(escapeForPattern).join('|')})(?![\\p{L}\\p{N}])`, 'iu');
  if (phrases.size === 0 && !pattern) return () => null;
  return (text) => {
    if (phrases.size > 0) {
      const found = wordsOf(text);
      for (let i = 0; i < found.length; i += 1) {
        let phrase = found[i]!;
        if (phrases.has(phrase)) return phrase;
        for (let k = 1; k < longest && i + k < found.length; k += 1) {
          phrase = `${phrase} ${found[i + k]!}`;
          if (phrases.has(phrase)) return phrase;
        }
      }
    }
    return pattern?.exec(text)?.[0].toLowerCase() ?? null;
  };
}

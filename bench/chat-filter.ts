/**
 * The chat filter's cost per line (decisions 0081, 0083): the operator's platform-wide words (1,000, as many
 * as allowed), a channel's blocked words (200, as many as the rules allow) and the link check, as every line
 * meets them, over chat lines of every length, beside the
 * reference a naive filter would be (each word looked for with `includes` in the lowered line: no
 * whole-word match, no case rule beyond lowering). Reported: nanoseconds per line for each, and the
 * filter's ratio to the reference. Goal: under 5 µs a line on the 2-core machine, so that filtering
 * every line costs a chat of 1,000 lines a second under 0.5 % of a core.
 *   npx tsx bench/chat-filter.ts
 */
import { CHAT_RULES } from '../common/api/chat';
import { CHAT_TEXT_MAX } from '../common/realtime-channels';
import { blockedWordMatcher, hasLink } from '../common/rules/chat-filter';
import { round, writeResult } from './lib';

const ROUNDS = 5;
const LINES = 20_000;
const GOAL_NS_PER_LINE = 5_000;

const words = Array.from({ length: CHAT_RULES.blockedWordsMax }, (_, i) => `blocked${i.toString(36)}word`);
const platformWords = Array.from({ length: CHAT_RULES.platformWordsMax }, (_, i) => `banned${i.toString(36)}term`);
const vocabulary = ['hello', 'great', 'show', 'love', 'this', 'song', 'when', 'are', 'you', 'going', 'live', 'again', 'lol', 'wow', 'thanks', 'for', 'the', 'stream'];
/** Lines of 1 to 60 words (up to the chat's length limit), one in a hundred with a blocked word, one in fifty with a link. */
const lines = Array.from({ length: LINES }, (_, n) => {
  const count = 1 + ((n * 7919) % 60);
  const text = Array.from({ length: count }, (_, i) => vocabulary[(n + i * 31) % vocabulary.length]).join(' ');
  const marked = n % 100 === 0 ? `${text} ${words[n % words.length]}` : n % 50 === 1 ? `${text} see example.com` : text;
  return [...marked].slice(0, CHAT_TEXT_MAX).join('');
});

function timePerLine(check: (line: string) => boolean): { ns: number; hits: number } {
  let hits = 0;
  const started = process.hrtime.bigint();
  for (const line of lines) if (check(line)) hits += 1;
  return { ns: Number(process.hrtime.bigint() - started) / lines.length, hits };
}

const matcher = blockedWordMatcher(words);
const platformMatcher = blockedWordMatcher(platformWords);
const lowered = [...platformWords, ...words].map((word) => word.toLowerCase());
const filter = (line: string) => platformMatcher(line) !== null || hasLink(line) || matcher(line) !== null;
const reference = (line: string) => {
  const text = line.toLowerCase();
  return lowered.some((word) => text.includes(word));
};

// Warm both up, then alternate them round by round (same neighbours).
timePerLine(filter);
timePerLine(reference);
const rounds = Array.from({ length: ROUNDS }, () => {
  const measured = timePerLine(filter);
  const naive = timePerLine(reference);
  return { filterNsPerLine: round(measured.ns, 0), referenceNsPerLine: round(naive.ns, 0), ratio: round(measured.ns / naive.ns, 2), refused: measured.hits };
});
const best = Math.min(...rounds.map((r) => r.filterNsPerLine));
writeResult('chat-filter', {
  words: words.length,
  platformWords: platformWords.length,
  lines: LINES,
  averageLineChars: round(lines.reduce((sum, line) => sum + line.length, 0) / lines.length, 0),
  goalNsPerLine: GOAL_NS_PER_LINE,
  goalMet: best <= GOAL_NS_PER_LINE,
  rounds,
});

/**
 * Emotes (decision 0084): a broadcaster's small images that their subscribers write as `:code:` in any chat,
 * shown as the image to everyone. One rule for the server, which checks who may use one, and the pages, which
 * draw them.
 */

/** A code: a lower-case letter, then letters and digits, 3 to 20 in all; unique on the site. */
export const EMOTE_CODE = /^[a-z][a-z0-9]{2,19}$/;
export const EMOTES = { perBroadcaster: 50, maxBytes: 1024 * 1024, sizePx: 112, perLineMax: 20, planLevelMax: 10 } as const;

const IN_TEXT = /:([a-z][a-z0-9]{2,19}):/g;

/** The distinct codes written as `:code:` in a line, in order of first use. */
export function emoteCodesIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(IN_TEXT), (match) => match[1]!))];
}

export type EmotePart = { text: string } | { code: string; url: string };

/** The line as text and the emotes among it, for drawing: only codes in `emotes` become images. */
export function splitEmotes(text: string, emotes: Readonly<Record<string, string>>): EmotePart[] {
  const parts: EmotePart[] = [];
  let from = 0;
  for (const match of text.matchAll(IN_TEXT)) {
    const url = emotes[match[1]!];
    if (url === undefined) continue;
    if (match.index > from) parts.push({ text: text.slice(from, match.index) });
    parts.push({ code: match[1]!, url });
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push({ text: text.slice(from) });
  return parts;
}

/** Reading a playlist as a player does: its segment lines are relative to the playlist's address (decision 0066). */

/** The absolute paths of the segments `body` lists, resolved against the playlist's address `playlist`. */
export function segmentPaths(playlist: string, body: unknown): string[] {
  const base = new URL(playlist, 'http://player.invalid');
  return String(body).split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => new URL(line, base).pathname);
}

/** The first listed segment whose name starts with `name` (`seg_00000.`), or undefined. */
export const segmentPath = (playlist: string, body: unknown, name = 'seg_') =>
  segmentPaths(playlist, body).find((line) => line.slice(line.lastIndexOf('/') + 1).startsWith(name));

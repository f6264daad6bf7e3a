/** The player's choices that need no browser: quality levels and where the live edge is. */

export interface QualityOption {
  /** hls.js level index; -1 lets hls.js choose (Auto). */
  level: number;
  label: string;
}

/**
 * The quality menu: Auto, then each rendition by height, highest first. One rendition (or several of
 * one height) offers no choice, so no menu.
 */
export function qualityOptions(levels: ReadonlyArray<{ height: number; bitrate: number }>): QualityOption[] {
  const best = new Map<number, { level: number; bitrate: number }>();
  levels.forEach((l, level) => {
    const seen = best.get(l.height);
    if (l.height > 0 && (!seen || l.bitrate > seen.bitrate)) best.set(l.height, { level, bitrate: l.bitrate });
  });
  if (best.size < 2) return [];
  const byHeight = [...best.entries()].sort(([a], [b]) => b - a).map(([height, { level }]) => ({ level, label: `${height}p` }));
  return [{ level: -1, label: 'Auto' }, ...byHeight];
}

/** Seconds behind the live edge that still count as live (a segment or two of slack). */
export const LIVE_EDGE_SLACK_S = 4;

/** Whether playback is at the live edge: hls.js's sync point when it has one, else the end of what can be played. */
export function atLiveEdge(currentTime: number, edge: number | null, paused: boolean): boolean {
  if (paused) return false;
  if (edge === null) return true;
  return edge - currentTime <= LIVE_EDGE_SLACK_S;
}

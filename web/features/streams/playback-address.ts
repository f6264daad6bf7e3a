/**
 * A playback address is `/media/hls/<stream>/<token>/index.m3u8`, its segments in the same token folder
 * (decision 0066). A player renews its token before it expires and points every later request at the
 * new folder, so playback does not stop for a 403 and a new playlist.
 */
const ADDRESS = /\/media\/hls\/(\d+)\/([^/?#]+)\//;

/** When the address's token expires (ms since the epoch), or null for an address of another shape. */
export function addressExpiry(address: string): number | null {
  const token = ADDRESS.exec(address)?.[2];
  const expiry = token ? Number.parseInt(token.split('.')[0] ?? '', 36) : NaN;
  return Number.isFinite(expiry) ? expiry * 1000 : null;
}

/** `url` (a playlist or a segment of the same stream) in the token folder of `current`; anything else unchanged. */
export function inFolderOf(url: string, current: string): string {
  const now = ADDRESS.exec(current);
  const then = ADDRESS.exec(url);
  if (!now || !then || now[1] !== then[1] || now[2] === then[2]) return url;
  return url.replace(ADDRESS, `/media/hls/${now[1]}/${now[2]}/`);
}

/** How long to wait before renewing: 20 s before expiry (at least 5 s from now); null when the address says nothing. */
export function renewIn(address: string, now: number): number | null {
  const expiry = addressExpiry(address);
  return expiry === null ? null : Math.max(5_000, expiry - 20_000 - now);
}

/**
 * Which push services the server may send to. A subscription's endpoint is an address a browser chose,
 * but anyone can post one: without this list the server would post to whatever address it is given
 * (its own network included). Entries: `host`, `*.domain` (any subdomain), or `host:port`, which also
 * allows plain http for a local push service (tests, development).
 */
export function isAllowedPushEndpoint(endpoint: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return allowed.some((entry) => {
    if (entry.includes(':') && !entry.startsWith('[')) return (url.protocol === 'https:' || url.protocol === 'http:') && url.host.toLowerCase() === entry;
    if (url.protocol !== 'https:' || url.port !== '') return false;
    return entry.startsWith('*.') ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry;
  });
}

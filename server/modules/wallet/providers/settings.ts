/**
 * A processor's settings read from the environment. A processor is enabled when all of its required
 * settings are given; config.ts refuses to start with some given and others missing (`missing`), or
 * with a value that cannot be right (`invalid`, the setting's name and why, never its value).
 */

export type SettingsCheck<T> =
  | { ok: true; options: T }
  | { ok: false; /** None of the processor's settings is given: it is simply not offered. */ absent: boolean; missing: string[]; invalid: string[] };

type Env = Record<string, string | undefined>;

export function readSettings<K extends string>(env: Env, names: readonly K[]): { values: Partial<Record<K, string>>; missing: K[]; absent: boolean } {
  const values: Partial<Record<K, string>> = {};
  const missing: K[] = [];
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) values[name] = value;
    else missing.push(name);
  }
  return { values, missing, absent: missing.length === names.length };
}

/** An http(s) origin with an optional path, without its trailing slash; a reason otherwise. */
export function baseUrl(name: string, value: string): { url: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `${name}: not a URL` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: `${name}: must be an http(s) URL` };
  if (url.search || url.hash || url.username || url.password) return { problem: `${name}: must have no query, fragment or credentials` };
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** A browser-like HTTP session for scripts and benchmarks: cookies, and the CSRF header on every call that changes state. */
export interface HttpSession {
  /** GET without a body, POST with one; throws unless the answer is a success. */
  call<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T>;
  /** Fetches a CSRF token for this session (again after login: the session rotates). */
  refreshCsrf(): Promise<void>;
}

export function httpSession(base: string): HttpSession {
  const cookies = new Map<string, string>();
  let csrf = '';
  async function call<T>(path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'x-csrf-token': csrf });
    const res = await fetch(base + path, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const data = (await res.json().catch(() => ({}))) as T & { response?: string; message?: string };
    if (!res.ok || data.response !== 'success') throw new Error(`${path}: ${res.status} ${data.message ?? data.response ?? ''}`);
    return data;
  }
  return {
    call,
    async refreshCsrf() {
      csrf = (await call<{ token: string }>('/api/csrf-token')).token;
    },
  };
}

/** A signed-in session for a user with a password (a demo user by default). */
export async function signedInSession(base: string, username: string, password = 'limelight-demo'): Promise<HttpSession> {
  const session = httpSession(base);
  await session.refreshCsrf();
  await session.call('/api/user/user-login', { username, password });
  await session.refreshCsrf();
  return session;
}

/**
 * A minimal browser over real HTTP for redirect dances between the app and an external provider:
 * a cookie jar per origin, redirects followed one by one, auto-submitting forms (OAuth form_post)
 * submitted, and the app's CSRF token for its calls.
 */
export interface BrowserResponse {
  status: number;
  url: URL;
  location: URL | null;
  body: unknown;
}

export class HttpBrowser {
  private readonly jars = new Map<string, Map<string, string>>();
  private csrfToken: string | undefined;

  /** `app` is the app's origin: navigation stops on its pages (outside /api/), like a browser would render them. */
  constructor(private readonly app: string) {}

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  async request(url: URL | string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<BrowserResponse> {
    const target = new URL(url);
    const jar = this.jars.get(target.origin) ?? new Map<string, string>();
    this.jars.set(target.origin, jar);
    const headers: Record<string, string> = { ...init.headers };
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(target, { method: init.method ?? 'GET', body: init.body, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    const text = await res.text();
    let body: unknown = text;
    if (res.headers.get('content-type')?.includes('json')) body = JSON.parse(text);
    const location = res.headers.get('location');
    return { status: res.status, url: target, location: location ? new URL(location, target) : null, body };
  }

  /**
   * Navigates from `url` through redirects and auto-submitted forms until a page of the app, or
   * until `stopAt` says so; answers the URL reached without loading it.
   */
  async navigate(url: URL | string, stopAt: (url: URL) => boolean = () => false): Promise<URL> {
    let next: { url: URL; method?: string; body?: string; headers?: Record<string, string> } = { url: new URL(url) };
    for (let hop = 0; hop < 20; hop++) {
      const isAppPage = next.url.origin === this.app && !next.url.pathname.startsWith('/api/');
      if (next.method === undefined && (isAppPage || stopAt(next.url))) return next.url;
      const res = await this.request(next.url, next);
      if (res.location) {
        next = { url: res.location };
        continue;
      }
      const form = typeof res.body === 'string' ? autoSubmitForm(res.body) : null;
      if (!form) throw new Error(`navigation stopped at ${res.status} ${next.url.href}: ${String(res.body).slice(0, 300)}`);
      next = {
        url: new URL(form.action, next.url),
        method: 'POST',
        body: form.fields.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      };
    }
    throw new Error('too many redirects');
  }

  /** Calls the app's JSON API like its web client: JSON body and the CSRF header. */
  async call(path: string, body?: unknown): Promise<BrowserResponse> {
    if (body === undefined) return this.request(`${this.app}${path}`);
    if (!this.csrfToken) this.csrfToken = String(((await this.request(`${this.app}/api/csrf-token`)).body as { token: string }).token);
    return this.request(`${this.app}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-csrf-token': this.csrfToken },
    });
  }
}

/** The one POST form of a page that submits itself (as oidc-provider's form_post response does). */
function autoSubmitForm(html: string): { action: string; fields: URLSearchParams } | null {
  const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(html)?.[1];
  if (!action) return null;
  const fields = new URLSearchParams();
  for (const match of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) fields.append(match[1] ?? '', decodeHtml(match[2] ?? ''));
  return { action: decodeHtml(action), fields };
}

const decodeHtml = (text: string) =>
  text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');

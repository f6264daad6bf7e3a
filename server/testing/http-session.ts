/**
 * One HTTP session for tests, scripts and benchmarks, as a browser holds it: a cookie jar, the CSRF
 * token on every call that changes state, typed calls of the contract. It speaks to the app in this
 * process (`HttpSession.over(app)`: Fastify's inject, no socket) or to a server at an address
 * (`HttpSession.at(url)`: node:http with keep-alive, cheap enough for a load generator).
 * `HttpBrowser` adds what an OAuth redirect dance needs: one session per origin, redirects and
 * auto-submitted forms followed one by one.
 */
import http from 'node:http';
import https from 'node:https';
import type { FastifyInstance } from 'fastify';
import type { CallDescriptor, CallInput, CallOutput, Failure } from '../../common/api/define';
import { IDEMPOTENCY_HEADER, needsCsrf } from '../../common/api/descriptor';

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
type Query = Record<string, string | number | boolean>;
type Headers = Record<string, string | string[] | number | undefined>;

export interface HttpResponse<T = Record<string, unknown>> {
  status: number;
  /** Parsed JSON; the text of a text/* answer; else the raw bytes. */
  body: T;
  headers: Headers;
}

/** What a call of the contract may carry besides its input: the Idempotency-Key of a call that moves money, other headers. */
export interface CallOptions {
  idempotencyKey?: string;
  headers?: Record<string, string>;
}

/** A call's input with any value in its fields, for a test of what the call refuses (wrong types, out of range). */
export type Malformed<I> = { [K in keyof I]?: unknown } & Record<string, unknown>;

/** A call that did not answer its success envelope: the status and failure envelope it answered instead. */
export class CallRefused extends Error {
  constructor(readonly status: number, readonly body: Failure, path: string) {
    super(`${path} answered ${status}: ${body.message ?? JSON.stringify(body)}`);
  }
}

/** Sends one request: the session adds cookies and the CSRF header, and reads Set-Cookie. */
export type Transport = (request: { method: Method; url: string; headers: Record<string, string>; body?: string | Buffer }) =>
  Promise<{ status: number; headers: Headers; body: Buffer }>;

/** The app in this process, through Fastify's inject. */
export const injectTransport = (app: FastifyInstance, remoteAddress?: string): Transport => async ({ method, url, headers, body }) => {
  const res = await app.inject({ method, url, headers, payload: body, ...(remoteAddress ? { remoteAddress } : {}) });
  return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
};

// node:http with keep-alive costs far less CPU per request than fetch: a benchmark's load generator
// must not become the bottleneck on a 2-core machine.
const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 256 }), https: new https.Agent({ keepAlive: true, maxSockets: 256 }) };

/** A server at `base` (an origin such as http://127.0.0.1:3000), over node:http. */
export const networkTransport = (base: string, options: { timeoutMs?: number } = {}): Transport => ({ method, url, headers, body }) => {
  const target = new URL(url, base);
  const secure = target.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(target, { method, headers, agent: secure ? agents.https : agents.http, timeout: options.timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
};

export class HttpSession {
  private readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  /** A client of the app in this process; `remoteAddress` is the address it calls from (127.0.0.1 otherwise). */
  static over(app: FastifyInstance, headers?: Record<string, string>, remoteAddress?: string): HttpSession {
    return new HttpSession(injectTransport(app, remoteAddress), headers);
  }

  static at(base: string, headers?: Record<string, string>): HttpSession {
    return new HttpSession(networkTransport(base), headers);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  /** The CSRF token of this session, fetched on first use. */
  async csrf(): Promise<string> {
    if (!this.csrfToken) {
      const res = await this.request('GET', '/api/csrf-token');
      // A failed answer (503 while the database is away) leaves nothing cached: the next call asks again.
      if (res.status !== 200) return '';
      this.csrfToken = String(res.body.token);
    }
    return this.csrfToken;
  }

  async request<T = Record<string, unknown>>(
    method: Method,
    url: string,
    options: { body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    // Every call but a GET carries the token unless told not to; a GET that changes state asks for it.
    if (options.csrf ?? method !== 'GET') headers['x-csrf-token'] = await this.csrf();
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    } else if (payload !== undefined) {
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.transport({ method, url, headers, body: payload });
    this.keepCookies(res.headers['set-cookie']);
    let body: unknown = res.body;
    const type = String(res.headers['content-type'] ?? '');
    if (type.includes('json')) body = res.body.length > 0 ? JSON.parse(res.body.toString('utf8')) : {};
    else if (type.startsWith('text/')) body = res.body.toString('utf8');
    return { status: res.status, body: body as T, headers: res.headers };
  }

  get<T = Record<string, unknown>>(url: string, query?: Record<string, string | number | boolean>) {
    const qs = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : '';
    return this.request<T>('GET', `${url}${qs}`);
  }

  post<T = Record<string, unknown>>(url: string, body?: unknown) {
    return this.request<T>('POST', url, { body: body ?? {} });
  }

  /**
   * Sends one call of the contract with typed input (the query of a GET, the JSON body otherwise) and
   * answers whatever came back, for a test about statuses or headers.
   */
  send<C extends CallDescriptor>(def: C, input: CallInput<C>, options: CallOptions = {}): Promise<HttpResponse> {
    const headers = { ...options.headers, ...(options.idempotencyKey !== undefined ? { [IDEMPOTENCY_HEADER]: options.idempotencyKey } : {}) };
    if (def.method !== 'GET') return this.request('POST', def.path, { body: input ?? {}, headers });
    const query = Object.entries((input ?? {}) as Query).map(([k, v]) => [k, String(v)]);
    const url = query.length > 0 ? `${def.path}?${new URLSearchParams(query)}` : def.path;
    return this.request('GET', url, { headers, csrf: needsCsrf(def) });
  }

  /** One call of the contract: its success answer, typed as the contract's output; throws `CallRefused` on any other answer. */
  async call<C extends CallDescriptor>(def: C, input: CallInput<C>, options?: CallOptions): Promise<CallOutput<C>> {
    const res = await this.send(def, input, options);
    if (res.status < 200 || res.status >= 300 || res.body.response !== 'success') throw new CallRefused(res.status, res.body as Failure, def.path);
    return res.body as CallOutput<C>;
  }

  /** One call of the contract that must be refused: its status and failure envelope; throws when it succeeded. */
  async refusal<C extends CallDescriptor>(def: C, input: CallInput<C> | Malformed<CallInput<C>>, options?: CallOptions): Promise<{ status: number; body: Failure; headers: Headers }> {
    const res = await this.send(def, input as CallInput<C>, options);
    if (res.status >= 200 && res.status < 300) throw new Error(`${def.path} succeeded (${res.status}) where a refusal was expected: ${JSON.stringify(res.body)}`);
    return { status: res.status, body: res.body as Failure, headers: res.headers };
  }

  /** GET without a body, POST with one; answers the success envelope, throws on anything else. */
  async api<T = Record<string, unknown>>(path: string, body?: unknown): Promise<T> {
    const res = body === undefined ? await this.request<T & { response?: string; message?: string }>('GET', path) : await this.post<T & { response?: string; message?: string }>(path, body);
    if (res.status < 200 || res.status >= 300 || res.body.response !== 'success') {
      throw new Error(`${path}: ${res.status} ${res.body.message ?? res.body.response ?? ''}`);
    }
    return res.body;
  }

  /** Signs in with a password; throws unless it worked. The session rotates: a new CSRF token follows. */
  async signIn(username: string, password: string): Promise<this> {
    const res = await this.post('/api/user/user-login', { username, password });
    if (res.status !== 200) throw new Error(`login failed for ${username}: ${res.status} ${JSON.stringify(res.body)}`);
    this.csrfToken = undefined;
    return this;
  }

  private keepCookies(setCookie: Headers[string]): void {
    const lines = Array.isArray(setCookie) ? setCookie : typeof setCookie === 'string' ? [setCookie] : [];
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => {
        const [key = '', setting = ''] = a.split('=').map((part) => part.trim());
        if (/^max-age$/i.test(key)) return Number(setting) <= 0;
        return /^expires$/i.test(key) && Date.parse(setting) <= Date.now();
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

export interface BrowserResponse extends HttpResponse<unknown> {
  url: URL;
  location: URL | null;
}

/**
 * A minimal browser over real HTTP for redirect dances between the app and an external provider:
 * a session (cookie jar) per origin, redirects followed one by one, auto-submitting forms (OAuth
 * form_post) submitted, and the app's CSRF token for its calls.
 */
export class HttpBrowser {
  private readonly sessions = new Map<string, HttpSession>();

  /** `app` is the app's origin: navigation stops on its pages (outside /api/), like a browser would render them. */
  constructor(private readonly app: string) {}

  private session(origin: string): HttpSession {
    const known = this.sessions.get(origin);
    if (known) return known;
    const created = HttpSession.at(origin);
    this.sessions.set(origin, created);
    return created;
  }

  cookie(origin: string, name: string): string | undefined {
    return this.sessions.get(origin)?.cookie(name);
  }

  async request(url: URL | string, init: { method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> } = {}): Promise<BrowserResponse> {
    const target = new URL(url);
    const res = await this.session(target.origin).request<unknown>(init.method ?? 'GET', target.pathname + target.search, {
      rawBody: init.body, headers: init.headers, csrf: false,
    });
    const location = res.headers.location;
    return { ...res, url: target, location: typeof location === 'string' ? new URL(location, target) : null };
  }

  /**
   * Navigates from `url` through redirects and auto-submitted forms until a page of the app, or
   * until `stopAt` says so; answers the URL reached without loading it.
   */
  async navigate(url: URL | string, stopAt: (url: URL) => boolean = () => false): Promise<URL> {
    let next: { url: URL; method?: 'POST'; body?: string; headers?: Record<string, string> } = { url: new URL(url) };
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
  call(path: string, body?: unknown): Promise<HttpResponse> {
    const session = this.session(this.app);
    return body === undefined ? session.request('GET', path) : session.post(path, body);
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

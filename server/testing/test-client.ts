/** An HTTP client for integration tests: a cookie jar, the CSRF token, typed calls of the contract. */
import type { FastifyInstance } from 'fastify';
import type { CallDef, CallInput } from '../../common/api/define';

export interface TestResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

export class TestClient {
  private readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  async csrf(): Promise<string> {
    if (!this.csrfToken) {
      const res = await this.request('GET', '/api/csrf-token');
      this.csrfToken = String(res.body.token);
    }
    return this.csrfToken;
  }

  async request<T = Record<string, unknown>>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    options: { body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    if (method !== 'GET' && options.csrf !== false) headers['x-csrf-token'] = await this.csrf();
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    } else if (payload !== undefined) {
      headers['content-type'] ??= 'application/json';
    }
    const res = await this.app.inject({ method, url, headers, payload });
    for (const cookie of res.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    let body: unknown = res.rawPayload;
    const type = String(res.headers['content-type'] ?? '');
    if (type.includes('json')) body = res.json();
    else if (type.startsWith('text/')) body = res.body;
    return { status: res.statusCode, body: body as T, headers: res.headers };
  }

  get<T = Record<string, unknown>>(url: string, query?: Record<string, string | number | boolean>) {
    const qs = query ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}` : '';
    return this.request<T>('GET', `${url}${qs}`);
  }

  post<T = Record<string, unknown>>(url: string, body?: unknown) {
    return this.request<T>('POST', url, { body: body ?? {} });
  }

  /** Calls one call of the contract with typed input. */
  call<C extends CallDef>(def: C, input: CallInput<C>) {
    return def.method === 'GET'
      ? this.get(def.path, input as Record<string, string | number | boolean>)
      : this.post(def.path, input);
  }
}

/**
 * What a mint attempt works with (see scripts/mint-attempts.ts): the server's address and people made the
 * way an outsider makes them — signed up through the public calls with the captcha solved, coins bought
 * with the sandbox's test card — each a plain fetch client keeping its cookies and CSRF token.
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A browser-like client: cookies kept, the CSRF header on every POST. */
export class Client {
  private readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  constructor(readonly baseUrl: string) {}

  async request(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const sent: Record<string, string> = { ...headers };
    if (method === 'POST') {
      sent['x-csrf-token'] = await this.csrf();
      sent['content-type'] = 'application/json';
    }
    if (this.cookies.size > 0) sent.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers: sent, ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}) });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const text = await res.text();
    return { status: res.status, body: text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : {} };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', path, body, headers);

  /** POST that must succeed: answers the body, throws with the server's words otherwise. */
  async ok(path: string, body?: unknown, headers?: Record<string, string>): Promise<Record<string, unknown>> {
    const res = await this.post(path, body, headers);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  private async csrf(): Promise<string> {
    this.csrfToken ??= String((await this.request('GET', '/api/csrf-token')).body.token);
    return this.csrfToken;
  }

  /** Solves the sign-up/login captcha as the browser widget does. */
  async captcha(): Promise<string> {
    const challenge = (await this.get('/api/captcha/challenge?strength=standard')).body as unknown as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error('could not solve the captcha');
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }
}

export interface Person {
  client: Client;
  userId: number;
  username: string;
  password: string;
}

export interface AttemptContext {
  /** The server's address, e.g. http://127.0.0.1:4123. */
  baseUrl: string;
  /** A new account, signed up (and so signed in) through the public calls; through a referral link when `referralCode` is given. */
  signUp(options?: { referralCode?: string }): Promise<Person>;
  /** A fresh signed-in session of an existing account. */
  signIn(person: Pick<Person, 'username' | 'password'>): Promise<Person>;
  /** Buys a coin package (100, 200, 500 or 1,000 coins) with the sandbox's test card; answers the coins bought. */
  deposit(person: Person, coins: 100 | 200 | 500 | 1000): Promise<number>;
  /** What an operator would do for a legitimate user (e.g. ALLOW REFERRAL_ACCESS for a programme holder); sign in again afterwards. */
  grantPermission(person: Person, permission: string): Promise<void>;
  /** The person's coins (their wallet's CON balance), as the wallet page reads it. */
  coinsOf(person: Person): Promise<number>;
  /** Waits until the server's settlement jobs have settled every period up to now (referral commissions). */
  waitForSettlements(): Promise<void>;
}

/** What an attempt answers: coins its people bought (coinsIn) and hold at the end (coinsOut). */
export interface AttemptResult {
  name: string;
  coinsIn: number;
  coinsOut: number;
}

export type Attempt = (ctx: AttemptContext) => Promise<AttemptResult>;

/**
 * Helpers shared by the benchmarks (bench/tips.ts, http-baseline.ts, user-search.ts) and scripts/crash-test.ts: an empty PostgreSQL database, many funded
 * tippers with sessions (written straight into the database: a sign-in costs an argon2id hash, and
 * the per-user tip limit means a load of thousands of tips/s needs thousands of users), a public
 * stream to tip on, and a keep-alive HTTP tip sender.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../platform/db/client';
import { checkConservation, conservationViolations, createLedger } from '../modules/ledger';
import { findLedgerViolations, type LedgerViolations } from './ledger-invariants';
import { DEMO_PASSWORD } from '../demo/demo-data';
import { HttpSession } from './http-session';

export const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Creates an empty database on the server of PG_URL (the server migrates it at start); answers its URL and a drop function. */
export async function emptyPostgresDatabase(prefix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
      await client.end();
    },
  };
}

export interface Tipper {
  userId: number;
  /** The ll_session cookie value. */
  token: string;
}

/**
 * Creates `count` users with a session each and `coins` CON each, funded from the mint by one ledger
 * transfer (through the ledger service, so the books balance). Needs the migrated schema (start the
 * server first).
 */
export async function provisionTippers(databaseUrl: string, count: number, coins: number, prefix = 'tipper'): Promise<Tipper[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    const tag = randomBytes(3).toString('hex');
    const { rows } = await pool.query<{ id: string }>(
      `insert into users (username, email, broadcast_key, terms_accepted, birthday, country, fullname)
       select $1 || g, $1 || g || '@bench.local', md5($1 || g || random()::text), true, '1990-06-15', 'CA', 'Tipper ' || g
       from generate_series(1, $2::int) g returning id`,
      [`${prefix}${tag}_`, count],
    );
    const ids = rows.map((r) => Number(r.id));
    const tokens = ids.map(() => randomBytes(32).toString('base64url'));
    await pool.query(
      `insert into sessions (id, user_id, remember, expires_at)
       select h, u, true, now() + interval '7 days' from unnest($1::text[], $2::bigint[]) as s(h, u)`,
      [tokens.map((t) => createHash('sha256').update(t).digest('hex')), ids],
    );
    // Wallets first (one statement), then one deposit transfer through the ledger: the coins issued
    // beside their money leg (a cent a coin paid by card) and a payment reference (decision 0036).
    await pool.query(`insert into ledger_accounts (user_id, currency) select u, 'CON' from unnest($1::bigint[]) u on conflict do nothing`, [ids]);
    const ledger = createLedger({ db: drizzle({ client: pool }) as unknown as Db });
    const total = coins * ids.length;
    if (coins > 0) await ledger.transfer({
      kind: 'deposit',
      idempotencyKey: `bench:funding:${tag}`,
      amount: total,
      currency: 'USD',
      details: { bench: true, coins: total, payment_reference: `bench:funding:${tag}` },
      legs: [
        { account: { system: 'mint', currency: 'CON' }, amount: -total },
        ...ids.map((userId) => ({ account: { userId, currency: 'CON' as const }, amount: coins })),
        { account: { system: 'card-payments', currency: 'USD' }, amount: -total },
        { account: { system: 'sales', currency: 'USD' }, amount: total },
      ],
    });
    return ids.map((userId, i) => ({ userId, token: tokens[i]! }));
  } finally {
    await pool.end();
  }
}

/** The ledger's invariants read from a database URL (empty lists when sound). */
export async function ledgerViolations(databaseUrl: string): Promise<LedgerViolations> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    return await findLedgerViolations(drizzle({ client: pool }) as unknown as Db);
  } finally {
    await pool.end();
  }
}

/** Conservation's violations (decision 0036) read from a database URL, as sentences (empty when money is conserved). */
export async function conservationViolationsAt(databaseUrl: string): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    return conservationViolations(await checkConservation(drizzle({ client: pool }) as unknown as Db));
  } finally {
    await pool.end();
  }
}

export const violationCount = (v: LedgerViolations) =>
  v.unbalancedCurrencies.length + v.negativeWallets.length + v.hollowTransfers.length + v.unbalancedTransfers.length + v.driftedAccounts.length;

export interface TipResponse {
  status: number;
  body: { response?: string; transfer_id?: number; message?: string; [k: string]: unknown };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/** An answer as the benchmarks read it: its JSON body, or the start of a body that is not JSON. */
function tipResponseOf(status: number, text: string): TipResponse {
  try {
    return { status, body: JSON.parse(text) as TipResponse['body'] };
  } catch {
    return { status, body: { message: text.slice(0, 200) } };
  }
}

/** Sends tips for any tipper: the CSRF secret is not tied to a session, so one token serves all. */
export class TipSender {
  private csrfSecret = '';
  private csrfToken = '';
  /** The CSRF cookie and header this sender uses (any connection may present them). */
  get csrf(): { secret: string; token: string } {
    return { secret: this.csrfSecret, token: this.csrfToken };
  }
  constructor(public base: string) {}

  async init(): Promise<this> {
    const res = await this.request('GET', '/api/csrf-token', '');
    this.csrfToken = String(res.body.token);
    return this;
  }

  request(method: string, pathname: string, cookie: string, body?: unknown, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<TipResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const all: Record<string, string> = { ...headers };
    const cookies = [cookie, this.csrfSecret ? `ll_csrf=${this.csrfSecret}` : ''].filter(Boolean).join('; ');
    if (cookies) all.cookie = cookies;
    if (payload !== undefined) all['content-type'] = 'application/json';
    if (method !== 'GET') all['x-csrf-token'] = this.csrfToken;
    return new Promise((resolve, reject) => {
      const req = http.request(this.base + pathname, { method, headers: all, agent, timeout: timeoutMs }, (res) => {
        for (const line of res.headers['set-cookie'] ?? []) {
          const m = /^ll_csrf=([^;]+)/.exec(line);
          if (m) this.csrfSecret = m[1]!;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve(tipResponseOf(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(payload);
    });
  }

  tip(tipper: Tipper, streamId: number, amount: number, key: string, timeoutMs?: number): Promise<TipResponse> {
    return this.request('POST', '/api/streams/send-tip', `ll_session=${tipper.token}`, { stream_id: streamId, amount }, { 'idempotency-key': key }, timeoutMs);
  }
}

/** broadcaster1's stream, public and live (the tip path needs a watchable stream, not media). */
export async function publicStream(base: string): Promise<{ streamId: number; ownerUsername: string }> {
  const broadcaster = await HttpSession.at(base).signIn('broadcaster1', DEMO_PASSWORD);
  const { stream } = await broadcaster.api<{ stream: { stream_id: number } }>('/api/streams/get-live-stream', {});
  await broadcaster.api('/api/streams/update-stream-info', { id: stream.stream_id, data: { title: 'Tips bench', audience: 'PUBLIC', rating: 'G' } });
  await broadcaster.api('/api/streams/go-live', { id: stream.stream_id });
  return { streamId: stream.stream_id, ownerUsername: 'broadcaster1' };
}

/** Transactions committed and rolled back in a database so far (one per autocommit statement). */
export async function transactionCount(databaseUrl: string, name: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: string }>('select (xact_commit + xact_rollback)::bigint as n from pg_stat_database where datname = $1', [name]);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Refreshes the planner's statistics of a database. */
export async function analyze(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('analyze');
  } finally {
    await client.end();
  }
}

/**
 * One keep-alive connection sending tips with hand-written HTTP/1.1 requests, one at a time: a load
 * generator that costs the machine little (like pgbench's client) so the server's share is measured.
 * Answers need a Content-Length (Fastify sends one).
 */
export class RawTipConnection implements TipConnection {
  private socket: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: ((res: TipResponse) => void) | null = null;
  private failed: ((error: Error) => void) | null = null;

  constructor(url: string, private readonly csrf: { secret: string; token: string }) {
    const { hostname, port } = new URL(url);
    this.socket = net.connect(Number(port), hostname);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (error) => this.failed?.(error));
  }

  tip(tipper: Tipper, streamId: number, amount: number, key: string): Promise<TipResponse> {
    const body = `{"stream_id":${streamId},"amount":${amount}}`;
    const head = `POST /api/streams/send-tip HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n`
      + `Cookie: ll_session=${tipper.token}; ll_csrf=${this.csrf.secret}\r\nX-CSRF-Token: ${this.csrf.token}\r\nIdempotency-Key: ${key}\r\n\r\n`;
    return new Promise((resolve, reject) => {
      this.pending = resolve;
      this.failed = reject;
      this.socket.write(head + body);
    });
  }

  private read(chunk: Buffer) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
    if (this.buffer.length < end + 4 + length) return;
    const text = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(end + 4 + length);
    const status = Number(head.slice(9, 12));
    const done = this.pending;
    this.pending = null;
    done?.(tipResponseOf(status, text));
  }

  close(): void {
    this.socket.destroy();
  }
}

/** What the tip benchmark drives: one request at a time per connection. */
export interface TipConnection {
  tip(tipper: Tipper, streamId: number, amount: number, key: string): Promise<TipResponse>;
  close(): void;
}

/**
 * The same tips from an ordinary client: Node's own `fetch` (undici, keep-alive), as an integration or
 * a script would call the API, so the figure is not a property of the hand-made generator above.
 */
export class FetchTipConnection implements TipConnection {
  constructor(private readonly url: string, private readonly csrf: { secret: string; token: string }) {}

  async tip(tipper: Tipper, streamId: number, amount: number, key: string): Promise<TipResponse> {
    const res = await fetch(`${this.url}/api/streams/send-tip`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `ll_session=${tipper.token}; ll_csrf=${this.csrf.secret}`,
        'x-csrf-token': this.csrf.token,
        'idempotency-key': key,
      },
      body: JSON.stringify({ stream_id: streamId, amount }),
    });
    return tipResponseOf(res.status, await res.text());
  }

  close(): void {}
}

/**
 * The bank test (issue 6, reliability): 32 clients at once over real HTTP tip at random — some
 * without the coins, some retrying a key, some sending one key several times at once — and buy
 * impression packages. Afterwards the books must balance to the coin.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type LiveStream, type TestApp } from '../../testing/harness';
import { createLedger } from '../ledger/service';
import { platformFee } from '../ledger';

const CLIENTS = 32;
const STREAMS = 4;
/** Each client's operations; a concurrent-key operation sends 3 requests: ≤ 30 tips a minute per user. */
const OPERATIONS = 10;
const SAME_KEY_AT_ONCE = 3;
const AMOUNTS = [1, 5, 10, 20, 100, 200];

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await startTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
});

/** A seeded generator, so a failure can be replayed (the seed is in the test's name). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const SEED = Number(process.env.BANK_SEED ?? Date.now() % 100_000);

interface HttpClient {
  userId: number;
  post(path: string, body: unknown, key?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  get(path: string): Promise<{ status: number; body: Record<string, unknown> }>;
}

async function httpClientFor(userId: number, username: string, password: string): Promise<HttpClient> {
  const client = await t.given.signedIn({ id: userId, username, password, email: '' });
  const csrf = await client.csrf();
  const cookie = `ll_session=${client.cookie('ll_session')}; ll_csrf=${client.cookie('ll_csrf')}`;
  const call = async (method: string, path: string, body?: unknown, key?: string) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        cookie,
        ...(method === 'POST' ? { 'x-csrf-token': csrf, 'content-type': 'application/json' } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { userId, post: (path, body, key) => call('POST', path, body, key), get: (path) => call('GET', path) };
}

const rowsOf = async <T>(query: ReturnType<typeof sql>) => (await t.resources.database.db.execute(query)).rows as T[];

describe(`the bank test (seed ${SEED})`, () => {
  it('keeps the books balanced under concurrent tips, retries, shared keys and purchases', async () => {
    const rand = random(SEED);
    const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
    const ledger = createLedger({ db: t.resources.database.db });

    const lives: LiveStream[] = [];
    for (let i = 0; i < STREAMS; i++) lives.push(await t.given.liveStream());
    const clients: HttpClient[] = [];
    for (let i = 0; i < CLIENTS; i++) {
      // The broadcasters tip too (on the other streams).
      const user = i < STREAMS ? lives[i]!.user : await t.given.user();
      clients.push(await httpClientFor(user.id, user.username, user.password));
    }
    const minted = new Map<number, number>();
    await Promise.all(clients.map(async ({ userId }, i) => {
      const coins = i % 5 === 0 ? 0 : Math.floor(rand() * 400); // some start with nothing at all
      minted.set(userId, coins);
      if (coins > 0) {
        await t.given.coins(userId, coins, { key: `bank-mint-${userId}` });
      }
    }));

    const packagesAnswer = await clients[0]!.get('/api/user/get-impression-packages');
    const packages = packagesAnswer.status === 200
      ? (packagesAnswer.body.impression_packages as Array<{ package_id: number; price: number; impressions: number }>)
      : [];

    /** What the clients were told: every acknowledged tip (transfer id → its facts) and purchase. */
    const acknowledged = new Map<number, { from: number; streamId: number; amount: number }>();
    const purchases = new Map<string, { userId: number; price: number; impressions: number }>();
    const statuses = new Map<string, number>();
    const count = (what: string) => statuses.set(what, (statuses.get(what) ?? 0) + 1);
    const unexpected: string[] = [];

    const tipOnce = async (client: HttpClient, streamId: number, amount: number, key: string) => {
      const res = await client.post('/api/streams/send-tip', { stream_id: streamId, amount }, key);
      if (res.status === 200) {
        const id = res.body.transfer_id as number;
        const known = acknowledged.get(id);
        if (known && (known.from !== client.userId || known.amount !== amount)) unexpected.push(`transfer ${id} answered for two tips`);
        acknowledged.set(id, { from: client.userId, streamId, amount });
        count('tip ok');
      } else if (res.status === 402 && res.body.response === 'insufficient_funds') {
        count('tip insufficient');
      } else {
        unexpected.push(`tip ${res.status} ${JSON.stringify(res.body)}`);
      }
      return res;
    };

    const run = async (client: HttpClient, index: number) => {
      const others = lives.filter((l) => l.user.id !== client.userId);
      let last: { streamId: number; amount: number; key: string } | null = null;
      for (let op = 0; op < OPERATIONS; op++) {
        const roll = rand();
        if (roll < 0.15 && last) {
          count('retry');
          await tipOnce(client, last.streamId, last.amount, last.key);
        } else if (roll < 0.3) {
          count('same key at once');
          const shared = { streamId: pick(others).streamId, amount: pick(AMOUNTS), key: `c${index}-o${op}-shared` };
          await Promise.all(Array.from({ length: SAME_KEY_AT_ONCE }, () => tipOnce(client, shared.streamId, shared.amount, shared.key)));
          last = shared;
        } else if (roll < 0.45 && packages.length > 0) {
          const pkg = pick(packages);
          const key = `c${index}-o${op}-imp`;
          const res = await client.post('/api/user/buy-impressions-package', { id: pkg.package_id }, key);
          if (res.status === 200) {
            purchases.set(`${client.userId}:${key}`, { userId: client.userId, price: pkg.price, impressions: pkg.impressions });
            count('purchase ok');
          } else if (res.status === 402) count('purchase insufficient');
          else unexpected.push(`purchase ${res.status} ${JSON.stringify(res.body)}`);
        } else {
          last = { streamId: pick(others).streamId, amount: pick(AMOUNTS), key: `c${index}-o${op}` };
          await tipOnce(client, last.streamId, last.amount, last.key);
        }
      }
    };
    await Promise.all(clients.map((client, index) => run(client, index)));

    // Every answer was a success or a refusal for want of coins; the load had both.
    expect(unexpected).toEqual([]);
    expect(statuses.get('tip ok') ?? 0).toBeGreaterThan(0);
    expect(statuses.get('tip insufficient') ?? 0).toBeGreaterThan(0);
    console.info(`bank test seed ${SEED}: ${JSON.stringify(Object.fromEntries(statuses))}; impression packages ${packages.length}`);

    // Every currency sums to zero; no wallet is negative; no key moved money twice.
    const sums = await rowsOf<{ currency: string; total: string | number }>(sql`select currency, sum(balance) as total from ledger_accounts group by currency`);
    for (const row of sums) expect(Number(row.total), row.currency).toBe(0);
    expect(await rowsOf(sql`select id from ledger_accounts where user_id is not null and balance < 0`)).toEqual([]);
    expect(await rowsOf(sql`select idempotency_key from ledger_transfers group by idempotency_key having count(*) > 1`)).toEqual([]);
    // Each transfer's entries sum to zero per currency.
    expect(await rowsOf(sql`
      select e.transfer_id from ledger_entries e join ledger_accounts a on a.id = e.account_id
      group by e.transfer_id, a.currency having sum(e.amount) <> 0`)).toEqual([]);

    // Each acknowledged tip exists as told, and no tip exists that was not acknowledged.
    const tips = await rowsOf<{ id: string | number; from_user_id: string | number; stream_id: string | number; amount: string | number }>(
      sql`select id, from_user_id, stream_id, amount from ledger_transfers where kind = 'tip'`);
    const stored = new Map(tips.map((r) => [Number(r.id), { from: Number(r.from_user_id), streamId: Number(r.stream_id), amount: Number(r.amount) }]));
    expect(stored).toEqual(acknowledged);

    // Each user's coins: minted − tips sent + tips received net of the fee − impressions bought.
    const feeOf = (amount: number) => platformFee(amount, 20);
    const ownerOf = new Map(lives.map((l) => [l.streamId, l.user.id]));
    for (const { userId } of clients) {
      let expected = minted.get(userId) ?? 0;
      let impressions = 0;
      for (const tip of acknowledged.values()) {
        if (tip.from === userId) expected -= tip.amount;
        if (ownerOf.get(tip.streamId) === userId) expected += tip.amount - feeOf(tip.amount);
      }
      for (const p of purchases.values()) {
        if (p.userId !== userId) continue;
        expected -= p.price;
        impressions += p.impressions;
      }
      const balances = await ledger.balances(userId);
      expect(balances.CON, `CON of ${userId}`).toBe(expected);
      expect(balances.IMP, `IMP of ${userId}`).toBe(impressions);
    }
    const [fees] = await rowsOf<{ balance: string | number }>(sql`select coalesce(sum(balance), 0) as balance from ledger_accounts where system = 'fees' and currency = 'CON'`);
    expect(Number(fees?.balance ?? 0)).toBe([...acknowledged.values()].reduce((sum, tip) => sum + feeOf(tip.amount), 0));
  }, 60_000);
});

/**
 * The Stripe stand-in's Connect part (decision 0063): Express accounts (`POST /v1/accounts`, `GET
 * /v1/accounts/:id`), account links to a hosted onboarding page a person can click through (single use;
 * a used or expired link sends them to `refresh_url`, as Stripe's do), and transfers to connected
 * accounts (`POST /v1/transfers`, list by `transfer_group`, retrieve, reversals) drawn from the
 * platform's available balance (`balance_insufficient` beyond it). Events: `account.updated` as a Connect
 * event (with `account`), `transfer.created` and `transfer.reversed` as the platform's.
 *
 * Written from Stripe's API reference, not checked against Stripe itself.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type Obj = Record<string, unknown>;
export type Form = { [key: string]: string | Form };

export interface ConnectWire {
  newId(prefix: string): string;
  now(): number;
  str(value: Form | string | undefined): string | undefined;
  invalid(message: string, param?: string, code?: string): Error;
  missing(kind: string, id: string): Error;
  emit(type: string, object: Obj, account?: string): Promise<void>;
  baseUrl(): string;
}

export interface StandinConnect {
  /** Cents the platform may still transfer (Stripe's available balance, USD). */
  balance: number;
  /** `verified` (default): onboarding enables payouts; `pending`: details submitted, payouts not enabled yet. */
  onboarding: 'verified' | 'pending';
  accounts: Map<string, Obj>;
  transfers: Map<string, Obj>;
  /** What Stripe's review later says of an account: `account.updated`. */
  setPayoutsEnabled(account: string, enabled: boolean): Promise<void>;
  /** The platform takes a transfer back (the Dashboard's reversal): `transfer.reversed`. */
  reverse(transferId: string): Promise<void>;
  api(method: string, path: string, form: Form): Promise<Obj | undefined>;
  hosted(req: IncomingMessage, res: ServerResponse, path: string, form: Form): Promise<boolean>;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function standinConnect(wire: ConnectWire): StandinConnect {
  const { newId, now, str, invalid, missing } = wire;
  const accounts = new Map<string, Obj>();
  const links = new Map<string, { account: string; refresh: string; return: string; expires: number; used: boolean }>();
  const transfers = new Map<string, Obj>();

  async function accountUpdated(account: Obj) {
    await wire.emit('account.updated', account, account.id as string);
  }

  async function reverse(transfer: Obj) {
    if (transfer.reversed) throw invalid('This transfer has already been reversed.');
    const reversal = { id: newId('trr'), object: 'transfer_reversal', amount: transfer.amount, currency: transfer.currency, transfer: transfer.id, created: now() };
    (transfer.reversals as { data: Obj[]; total_count: number }).data.unshift(reversal);
    (transfer.reversals as { total_count: number }).total_count += 1;
    Object.assign(transfer, { reversed: true, amount_reversed: transfer.amount });
    connect.balance += transfer.amount as number;
    await wire.emit('transfer.reversed', transfer);
    return reversal;
  }

  function page(link: { account: string; return: string }, token: string, notice = ''): string {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Stripe Express onboarding (stand-in)</title>
      <style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1a1f36}label{display:block;margin:.6rem 0}input{display:block;width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
      button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem;background:#635bff;color:#fff;border:0;border-radius:4px}.notice{color:#c0123c}.test{background:#fff4d6;padding:.3rem .6rem;font-size:.8rem}</style></head>
      <body><p class="test">TEST MODE — local Stripe stand-in</p><h1>Get paid with Stripe</h1><p>Account <code>${escape(link.account)}</code></p>
      ${notice ? `<p class="notice" id="notice">${escape(notice)}</p>` : ''}
      <form method="post" action="/connect/onboard/${token}">
        <label>Legal name <input name="name" id="legalName" autocomplete="name" required></label>
        <label>Date of birth <input name="dob" id="dob" placeholder="YYYY-MM-DD" required></label>
        <label>Routing number <input name="routing" id="routingNumber" value="110000000" required></label>
        <label>Account number <input name="account_number" id="accountNumber" value="000123456789" required></label>
        <button id="submit" type="submit">Agree and submit</button></form>
      <p><a id="return" href="${escape(link.return)}">Save and return later</a></p></body></html>`;
  }

  const connect: StandinConnect = {
    balance: 10_000_000,
    onboarding: 'verified',
    accounts,
    transfers,
    async setPayoutsEnabled(id, enabled) {
      const account = accounts.get(id);
      if (!account) throw new Error(`no account ${id}`);
      Object.assign(account, { payouts_enabled: enabled, capabilities: { transfers: enabled ? 'active' : 'inactive' } });
      await accountUpdated(account);
    },
    async reverse(id) {
      const transfer = transfers.get(id);
      if (!transfer) throw new Error(`no transfer ${id}`);
      await reverse(transfer);
    },

    async api(method, path, form) {
      let match: RegExpExecArray | null;
      if (method === 'POST' && path === '/v1/accounts') {
        if (str(form.type) !== 'express') throw invalid('Only type=express is supported here.', 'type');
        const account = {
          id: newId('acct'), object: 'account', type: 'express', email: str(form.email) ?? null, country: str(form.country) ?? 'US', default_currency: 'usd',
          details_submitted: false, charges_enabled: false, payouts_enabled: false, capabilities: { transfers: 'inactive' }, metadata: form.metadata ?? {}, created: now(),
        };
        accounts.set(account.id, account);
        return account;
      }
      if ((match = /^\/v1\/accounts\/([^/]+)$/.exec(path)) && method === 'GET') {
        const account = accounts.get(match[1]!);
        if (!account) throw missing('account', match[1]!);
        return account;
      }
      if (method === 'POST' && path === '/v1/account_links') {
        const account = str(form.account) ?? '';
        if (!accounts.has(account)) throw missing('account', account);
        if (str(form.type) !== 'account_onboarding') throw invalid('Only type=account_onboarding is supported here.', 'type');
        const refresh = str(form.refresh_url);
        const back = str(form.return_url);
        if (!refresh || !back) throw invalid('refresh_url and return_url are required.', refresh ? 'return_url' : 'refresh_url');
        const token = newId('acctlink');
        const expires = now() + 300;
        links.set(token, { account, refresh, return: back, expires, used: false });
        return { object: 'account_link', created: now(), expires_at: expires, url: `${wire.baseUrl()}/connect/onboard/${token}` };
      }
      if (method === 'POST' && path === '/v1/transfers') {
        const amount = Number(str(form.amount));
        if (!Number.isInteger(amount) || amount <= 0) throw invalid('Invalid positive integer', 'amount');
        if (str(form.currency) !== 'usd') throw invalid('Only usd transfers are supported here.', 'currency');
        const destination = accounts.get(str(form.destination) ?? '');
        if (!destination) throw missing('account', str(form.destination) ?? '');
        if ((destination.capabilities as Obj).transfers !== 'active') {
          throw invalid('Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments', 'destination');
        }
        if (amount > connect.balance) {
          throw invalid('You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card.', undefined, 'balance_insufficient');
        }
        connect.balance -= amount;
        const id = newId('tr');
        const transfer = {
          id, object: 'transfer', amount, amount_reversed: 0, currency: 'usd', destination: destination.id, destination_payment: newId('py'),
          transfer_group: str(form.transfer_group) ?? null, metadata: form.metadata ?? {}, reversed: false, created: now(), livemode: false,
          reversals: { object: 'list', data: [], has_more: false, total_count: 0, url: `/v1/transfers/${id}/reversals` },
        };
        transfers.set(id, transfer);
        await wire.emit('transfer.created', transfer);
        return transfer;
      }
      if (method === 'GET' && path === '/v1/transfers') {
        const group = str(form.transfer_group);
        const destination = str(form.destination);
        const data = [...transfers.values()].filter((t) => (!group || t.transfer_group === group) && (!destination || t.destination === destination)).reverse();
        return { object: 'list', data, has_more: false, url: '/v1/transfers' };
      }
      if ((match = /^\/v1\/transfers\/([^/]+)(\/reversals)?$/.exec(path))) {
        const transfer = transfers.get(match[1]!);
        if (!transfer) throw missing('transfer', match[1]!);
        if (match[2] && method === 'POST') return reverse(transfer);
        if (!match[2] && method === 'GET') return transfer;
      }
      return undefined;
    },

    async hosted(req, res, path, form) {
      const match = /^\/connect\/onboard\/([^/]+)$/.exec(path);
      if (!match) return false;
      const token = match[1]!;
      const link = links.get(token);
      const html = (status: number, text: string) => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
        res.end(text);
      };
      const go = (location: string) => {
        res.writeHead(303, { location });
        res.end();
      };
      if (!link) return (html(404, '<p>This link does not exist.</p>'), true);
      const account = accounts.get(link.account)!;
      if (req.method === 'GET') {
        if (link.used || link.expires < now()) return (go(link.refresh), true);
        link.used = true;
        return (html(200, page(link, token)), true);
      }
      if (!str(form.name)?.trim() || !/^\d{4}-\d{2}-\d{2}$/.test(str(form.dob) ?? '') || !/^\d{4,17}$/.test(str(form.account_number) ?? '')) {
        return (html(400, page(link, token, 'Enter your legal name, your date of birth (YYYY-MM-DD) and an account number.')), true);
      }
      const verified = connect.onboarding === 'verified';
      Object.assign(account, {
        details_submitted: true, payouts_enabled: verified, capabilities: { transfers: verified ? 'active' : 'inactive' },
        external_accounts: { object: 'list', data: [{ object: 'bank_account', last4: str(form.account_number)!.slice(-4), routing_number: str(form.routing) }] },
      });
      await accountUpdated(account);
      return (go(link.return), true);
    },
  };
  return connect;
}

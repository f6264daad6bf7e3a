/**
 * A local stand-in for Stripe (tests and the browser journey; decision 0055): an HTTP server speaking
 * the part of Stripe's REST API the official SDK calls for us — form-encoded bodies with bracketed keys,
 * `Authorization: Bearer sk_…`, `Idempotency-Key` (the same key answers the first response), JSON objects
 * shaped as Stripe's, errors as Stripe's error objects — a hosted checkout page taking Stripe's test
 * cards, and signed events (`Stripe-Signature: t=…,v1=HMAC-SHA256(t.payload)`) posted to a webhook URL.
 *
 * Test cards: 4242 4242 4242 4242 succeeds; 4000 0027 6000 3184 asks for 3-D Secure (authorise or fail);
 * 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 has insufficient funds. Off-session charges of a
 * saved 3184 card answer `authentication_required`, as Stripe's do.
 *
 * Connect (Express accounts, onboarding links and their page, transfers) is in stripe-standin-connect.ts;
 * its events go to `connectWebhookUrl`, signed with `connectWebhookSecret`.
 *
 * It is written from Stripe's API reference, not checked against Stripe itself.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { standinConnect, type Form, type Obj, type StandinConnect } from './stripe-standin-connect';

export const STANDIN_CARDS = {
  succeeds: '4242424242424242',
  threeDSecure: '4000002760003184',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

/** The payer on the stand-in's hosted page: opens it, types a card and submits; answers the page and what the submit answered. */
export async function payOnHostedPage(redirectUrl: string, number: string) {
  const page = await fetch(redirectUrl);
  const pageHtml = await page.text();
  const res = await fetch(redirectUrl, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ number, expiry: '12 / 34', cvc: '123', name: 'Pat Payer' }).toString(),
  });
  return { pageStatus: page.status, pageHtml, status: res.status, location: res.headers.get('location'), html: await res.text() };
}

export interface StandinEvent {
  id: string;
  type: string;
  object: Obj;
  /** A Connect event: the connected account it happened on. */
  account?: string;
  /** `payouts`: an account or transfer event, posted to the Connect webhook URL. */
  to?: 'payments' | 'payouts';
}

export interface StripeStandin {
  baseUrl: string;
  /** The settings that point the app at this Stripe (PAYMENTS=stripe). */
  env(): Record<string, string>;
  secretKey: string;
  webhookSecret: string;
  /** Where events are posted; unset: they are only kept. */
  webhookUrl: string | undefined;
  /** Where account and transfer events (Connect) are posted, signed with `connectWebhookSecret`. */
  connectWebhookUrl: string | undefined;
  connectWebhookSecret: string;
  connect: StandinConnect;
  /** Transfers are made but their answers lost (the connection drops), every retry too. */
  loseTransferAnswers: boolean;
  /** `deliver` (default): posted before the payer's redirect; `hold`: kept for `flush`; `drop`: lost. */
  webhookMode: 'deliver' | 'hold' | 'drop';
  /** Every event made, in order. */
  events: StandinEvent[];
  /** Events held (webhookMode hold) or whose delivery failed. */
  undelivered: StandinEvent[];
  /** Posts one event again as it was (a replay) or as given; answers the webhook's status. */
  deliver(event: StandinEvent, options?: { signature?: string; timestamp?: number }): Promise<number>;
  flush(): Promise<void>;
  /** The signature header Stripe would send for this payload (with the Connect endpoint's secret for `payouts`). */
  sign(payload: string, timestamp?: number, to?: StandinEvent['to']): string;
  /** A dispute on a payment's charge (the cardholder's bank): `charge.dispute.created`. */
  dispute(paymentIntentId: string): Promise<string>;
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Promise<void>;
  /** The checkout runs out now: `checkout.session.expired`. */
  expire(sessionId: string): Promise<void>;
  session(id: string): Obj | undefined;
  close(): Promise<void>;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding: `a[b][0][c]=v` into nested objects (arrays as objects with numeric keys). */
function parseForm(text: string): Form {
  const out: Form = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split('[').map((p, i) => (i === 0 ? p : p.replace(/\]$/, '')));
    let node = out;
    parts.forEach((part, i) => {
      const key = part === '' ? String(Object.keys(node).length) : part;
      if (i === parts.length - 1) node[key] = value;
      else node = (node[key] ??= {}) as Form;
    });
  }
  return out;
}

const values = (form: Form | string | undefined): Array<Form | string> => (form && typeof form === 'object' ? Object.values(form) : []);
const str = (form: Form | string | undefined): string | undefined => (typeof form === 'string' ? form : undefined);
const bool = (value: Form | string | undefined) => value === 'true';

class StripeFailure extends Error {
  constructor(readonly status: number, readonly body: Obj) {
    super(String(body.message));
  }
}

const invalid = (message: string, param?: string, code?: string) => new StripeFailure(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code } : {}) });
const missing = (kind: string, id: string) => new StripeFailure(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param: 'id' });

function brandOf(number: string) {
  return number.startsWith('4') ? 'visa' : number.startsWith('5') ? 'mastercard' : 'unknown';
}

export async function startStripeStandin(options: { webhookUrl?: string; secretKey?: string; webhookSecret?: string; connectWebhookSecret?: string } = {}): Promise<StripeStandin> {
  const secretKey = options.secretKey ?? `sk_test_standin${randomBytes(8).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_standin${randomBytes(12).toString('hex')}`;
  const connectWebhookSecret = options.connectWebhookSecret ?? `whsec_standinconnect${randomBytes(12).toString('hex')}`;
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const intents = new Map<string, Obj>();
  const methods = new Map<string, Obj & { number: string }>();
  const charges = new Map<string, Obj>();
  const refunds = new Map<string, Obj>();
  const disputes = new Map<string, Obj>();
  const idempotent = new Map<string, { status: number; body: Obj }>();
  let baseUrl = '';

  const sign = (payload: string, timestamp = now(), to: StandinEvent['to'] = 'payments') =>
    `t=${timestamp},v1=${createHmac('sha256', to === 'payouts' ? connectWebhookSecret : webhookSecret).update(`${timestamp}.${payload}`).digest('hex')}`;
  const urlOf = (to: StandinEvent['to']) => (to === 'payouts' ? standin.connectWebhookUrl : standin.webhookUrl);

  async function post(event: StandinEvent, given: { signature?: string; timestamp?: number } = {}): Promise<number> {
    const url = urlOf(event.to ?? 'payments');
    if (!url) throw new Error('the stand-in has no webhook URL');
    const payload = JSON.stringify({
      id: event.id, object: 'event', ...(event.account ? { account: event.account } : {}), api_version: '2026-10-28.endive', created: now(), livemode: false, pending_webhooks: 1,
      request: { id: null, idempotency_key: null }, type: event.type, data: { object: event.object },
    });
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)', 'stripe-signature': given.signature ?? sign(payload, given.timestamp, event.to ?? 'payments') },
      body: payload,
    });
    await res.arrayBuffer();
    return res.status;
  }

  async function emit(type: string, object: Obj, account?: string): Promise<void> {
    const to = /^(account|transfer)\./.test(type) ? 'payouts' as const : 'payments' as const;
    const event: StandinEvent = { id: newId('evt'), type, object: structuredClone(object), ...(account ? { account } : {}), to };
    standin.events.push(event);
    if (standin.webhookMode === 'drop' || !urlOf(to)) return;
    if (standin.webhookMode === 'hold') {
      standin.undelivered.push(event);
      return;
    }
    const status = await post(event).catch(() => 0);
    if (status < 200 || status >= 300) standin.undelivered.push(event);
  }

  function outcomeOf(number: string): 'succeeded' | '3ds' | 'declined' | 'insufficient_funds' {
    if (number === STANDIN_CARDS.succeeds) return 'succeeded';
    if (number === STANDIN_CARDS.threeDSecure) return '3ds';
    if (number === STANDIN_CARDS.insufficientFunds) return 'insufficient_funds';
    return 'declined';
  }

  function paymentMethod(number: string, expMonth: number, expYear: number, customer: string | null) {
    const pm = { id: newId('pm'), object: 'payment_method', type: 'card', customer, created: now(), number,
      card: { brand: brandOf(number), last4: number.slice(-4), exp_month: expMonth, exp_year: expYear, funding: 'credit', country: 'US' } };
    methods.set(pm.id, pm);
    return pm;
  }
  const publicMethod = (pm: Obj) => {
    const { number: _hidden, ...shown } = pm;
    return shown;
  };

  function succeedIntent(intent: Obj) {
    const charge = { id: newId('ch'), object: 'charge', amount: intent.amount, amount_refunded: 0, currency: intent.currency, payment_intent: intent.id,
      refunded: false, status: 'succeeded', paid: true, created: now(), metadata: {} };
    charges.set(charge.id as string, charge);
    Object.assign(intent, { status: 'succeeded', latest_charge: charge.id, last_payment_error: null });
  }

  /** The payer paid on the hosted page (after 3-D Secure when asked). */
  async function completeSession(session: Obj, pm: Obj) {
    const setup = session.setup_future_usage as string | null;
    if (setup && session.customer) pm.customer = session.customer;
    const intent: Obj = { id: newId('pi'), object: 'payment_intent', amount: session.amount_total, currency: session.currency, customer: session.customer ?? null,
      payment_method: pm.id, setup_future_usage: setup, metadata: session.payment_intent_metadata ?? {}, created: now(), status: 'processing', last_payment_error: null };
    intents.set(intent.id as string, intent);
    succeedIntent(intent);
    Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: intent.id });
    await emit('checkout.session.completed', publicSession(session));
  }
  const publicSession = (s: Obj) => {
    const { setup_future_usage: _s, payment_intent_metadata: _m, ...shown } = s;
    return shown;
  };

  const connect = standinConnect({ newId, now, str, invalid, missing, emit, baseUrl: () => baseUrl });

  // --- the API -----------------------------------------------------------------------------------
  async function api(method: string, path: string, form: Form): Promise<Obj> {
    let match: RegExpExecArray | null;
    const connected = await connect.api(method, path, form);
    if (connected) return connected;
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: newId('cus'), object: 'customer', email: str(form.email) ?? null, metadata: form.metadata ?? {}, created: now() };
      customers.set(customer.id, customer);
      return customer;
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (str(form.mode) !== 'payment') throw invalid('Only mode=payment is supported here.', 'mode');
      const items = values(form.line_items) as Form[];
      if (items.length === 0) throw invalid('line_items is required.', 'line_items');
      let total = 0;
      let currency = '';
      for (const item of items) {
        const price = item.price_data as Form | undefined;
        const amount = Number(str(price?.unit_amount));
        if (!price || !Number.isInteger(amount) || amount <= 0) throw invalid('Each line item needs price_data[unit_amount].', 'line_items');
        currency = str(price.currency) ?? '';
        total += amount * Number(str(item.quantity) ?? '1');
      }
      const customer = str(form.customer) ?? null;
      if (customer && !customers.has(customer)) throw missing('customer', customer);
      const intentData = (form.payment_intent_data ?? {}) as Form;
      const id = newId('cs_test');
      const session: Obj = {
        id, object: 'checkout.session', mode: 'payment', status: 'open', payment_status: 'unpaid', amount_total: total, currency,
        client_reference_id: str(form.client_reference_id) ?? null, customer, customer_email: str(form.customer_email) ?? null,
        success_url: str(form.success_url), cancel_url: str(form.cancel_url), metadata: form.metadata ?? {}, payment_intent: null,
        expires_at: Number(str(form.expires_at) ?? now() + 86_400), created: now(), url: `${baseUrl}/pay/${id}`,
        line_items_name: str((((items[0]!.price_data as Form).product_data ?? {}) as Form).name) ?? '',
        setup_future_usage: str(intentData.setup_future_usage) ?? null, payment_intent_metadata: intentData.metadata ?? {},
      };
      if (!session.success_url) throw invalid('success_url is required.', 'success_url');
      sessions.set(id, session);
      return publicSession(session);
    }
    if ((match = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path))) {
      const session = sessions.get(match[1]!);
      if (!session) throw missing('checkout.session', match[1]!);
      if (method === 'POST' && match[2]) {
        if (session.status !== 'open') throw invalid('Only open sessions can be expired.');
        session.status = 'expired';
        await emit('checkout.session.expired', publicSession(session));
      }
      return publicSession(session);
    }
    if ((match = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)) && method === 'GET') {
      const intent = intents.get(match[1]!);
      if (!intent) throw missing('payment_intent', match[1]!);
      const expand = values(form.expand);
      const pm = methods.get(intent.payment_method as string);
      return { ...intent, ...(expand.includes('payment_method') && pm ? { payment_method: publicMethod(pm) } : {}) };
    }
    if (method === 'POST' && path === '/v1/payment_intents') {
      const pm = methods.get(str(form.payment_method) ?? '');
      if (!pm) throw missing('payment_method', str(form.payment_method) ?? '');
      const customer = str(form.customer) ?? null;
      if (pm.customer !== customer) throw invalid('The PaymentMethod is not attached to this customer.', 'payment_method');
      if (!bool(form.confirm) || !bool(form.off_session)) throw invalid('Only confirm=true with off_session=true is supported here.');
      const amount = Number(str(form.amount));
      const intent: Obj = { id: newId('pi'), object: 'payment_intent', amount, currency: str(form.currency), customer, payment_method: pm.id,
        setup_future_usage: null, metadata: form.metadata ?? {}, created: now(), status: 'requires_payment_method', last_payment_error: null };
      intents.set(intent.id as string, intent);
      const outcome = outcomeOf(pm.number);
      if (outcome === 'succeeded') {
        succeedIntent(intent);
        await emit('payment_intent.succeeded', intent);
        return intent;
      }
      const error = outcome === '3ds'
        ? { type: 'card_error', code: 'authentication_required', decline_code: 'authentication_required', message: 'This payment requires authentication by the cardholder.' }
        : { type: 'card_error', code: 'card_declined', decline_code: outcome === 'insufficient_funds' ? 'insufficient_funds' : 'generic_decline',
          message: outcome === 'insufficient_funds' ? 'Your card has insufficient funds.' : 'Your card was declined.' };
      intent.last_payment_error = error;
      await emit('payment_intent.payment_failed', intent);
      throw new StripeFailure(402, { ...error, payment_intent: intent });
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(str(form.payment_intent) ?? '');
      if (!intent) throw missing('payment_intent', str(form.payment_intent) ?? '');
      const charge = charges.get(intent.latest_charge as string);
      if (!charge) throw invalid('This PaymentIntent has no successful charge to refund.');
      const amount = Number(str(form.amount) ?? (charge.amount as number) - (charge.amount_refunded as number));
      if (!(amount > 0) || amount > (charge.amount as number) - (charge.amount_refunded as number)) {
        throw invalid(`Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge.`, 'amount');
      }
      const refund = { id: newId('re'), object: 'refund', amount, currency: charge.currency, charge: charge.id, payment_intent: intent.id, status: 'succeeded',
        created: now(), metadata: form.metadata ?? {}, failure_reason: null };
      refunds.set(refund.id, refund);
      charge.amount_refunded = (charge.amount_refunded as number) + amount;
      charge.refunded = charge.amount_refunded === charge.amount;
      await emit('charge.refunded', charge);
      return refund;
    }
    if (method === 'GET' && path === '/v1/refunds') {
      const charge = str(form.charge);
      const data = [...refunds.values()].filter((r) => !charge || r.charge === charge).reverse();
      return { object: 'list', data, has_more: false, url: '/v1/refunds' };
    }
    throw new StripeFailure(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  }

  // --- the hosted page ---------------------------------------------------------------------------
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  function page(session: Obj, notice = '', step: 'card' | '3ds' = 'card'): string {
    const amount = `${((session.amount_total as number) / 100).toFixed(2)} ${String(session.currency).toUpperCase()}`;
    const body = step === '3ds'
      ? `<h2>3-D Secure</h2><p>Your bank asks you to confirm this payment of ${amount}.</p>
         <form method="post" action="/pay/${session.id}/3ds"><button name="action" value="authorise" id="authorise">Complete authentication</button>
         <button name="action" value="fail" id="fail-authentication">Fail authentication</button></form>`
      : `<form method="post" action="/pay/${session.id}">
         <label>Card number <input name="number" id="cardNumber" autocomplete="cc-number" inputmode="numeric" required></label>
         <label>Expiry (MM / YY) <input name="expiry" id="cardExpiry" placeholder="MM / YY" required></label>
         <label>CVC <input name="cvc" id="cardCvc" required></label>
         <label>Name on card <input name="name" id="billingName" required></label>
         <button id="pay" type="submit">Pay ${amount}</button></form>
         <p><a id="cancel" href="${escape(String(session.cancel_url))}">← Back</a></p>`;
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Checkout (stand-in)</title>
      <style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1a1f36}label{display:block;margin:.6rem 0}input{display:block;width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
      button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem;background:#635bff;color:#fff;border:0;border-radius:4px}.notice{color:#c0123c}.test{background:#fff4d6;padding:.3rem .6rem;font-size:.8rem}</style></head>
      <body><p class="test">TEST MODE — local Stripe stand-in</p><h1>${escape(String(session.line_items_name))}</h1><p id="amount">${amount}</p>
      ${notice ? `<p class="notice" id="notice">${escape(notice)}</p>` : ''}${body}</body></html>`;
  }

  async function hosted(req: IncomingMessage, res: ServerResponse, path: string, form: Form): Promise<boolean> {
    const match = /^\/pay\/([^/]+)(\/3ds)?$/.exec(path);
    if (!match) return false;
    const session = sessions.get(match[1]!);
    const html = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(text);
    };
    if (!session) return (html(404, '<p>This checkout does not exist.</p>'), true);
    if (session.status !== 'open') return (html(410, `<p id="notice">This checkout is ${String(session.status)}.</p>`), true);
    const done = () => {
      res.writeHead(303, { location: String(session.success_url) });
      res.end();
    };
    if (req.method === 'GET') return (html(200, page(session)), true);
    if (match[2]) {
      const pending = session.pending_method as Obj | undefined;
      if (!pending) return (html(400, page(session, 'Enter your card first.')), true);
      delete session.pending_method;
      if (str(form.action) !== 'authorise') return (html(402, page(session, 'We are unable to authenticate your payment method. Please choose a different payment method and try again.')), true);
      await completeSession(session, pending);
      return (done(), true);
    }
    const number = (str(form.number) ?? '').replace(/\D/g, '');
    const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2,4})\s*$/.exec(str(form.expiry) ?? '');
    if (!/^\d{12,19}$/.test(number) || !expiry) return (html(400, page(session, 'Your card number or expiry is incomplete.')), true);
    const year = Number(expiry[2]!.length === 2 ? `20${expiry[2]}` : expiry[2]);
    const pm = paymentMethod(number, Number(expiry[1]), year, null);
    const outcome = outcomeOf(number);
    if (outcome === 'declined') return (html(402, page(session, 'Your card was declined.')), true);
    if (outcome === 'insufficient_funds') return (html(402, page(session, 'Your card has insufficient funds.')), true);
    if (outcome === '3ds') {
      session.pending_method = pm;
      return (html(200, page(session, '', '3ds')), true);
    }
    await completeSession(session, pm);
    return (done(), true);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://standin');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const form = parseForm(req.method === 'GET' ? url.search.slice(1) : raw);
    if (await hosted(req, res, url.pathname, form)) return;
    if (await connect.hosted(req, res, url.pathname, form)) return;
    const json = (status: number, body: Obj, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req'), ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return json(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } });
    }
    const key = req.headers['idempotency-key'];
    const remembered = typeof key === 'string' ? idempotent.get(`${req.method} ${url.pathname} ${key}`) : undefined;
    const lose = standin.loseTransferAnswers && req.method === 'POST' && url.pathname === '/v1/transfers';
    if (remembered && lose) return void res.destroy();
    if (remembered) {
      if (remembered.body.__request !== raw) {
        return json(400, { error: { type: 'idempotency_error', message: 'Keys for idempotent requests can only be used with the same parameters they were first used with.' } });
      }
      const { __request: _r, ...body } = remembered.body;
      return json(remembered.status, body, { 'idempotent-replayed': 'true' });
    }
    let status = 200;
    let body: Obj;
    try {
      body = await api(req.method ?? 'GET', url.pathname, form);
    } catch (error) {
      if (!(error instanceof StripeFailure)) throw error;
      status = error.status;
      body = { error: error.body };
    }
    if (typeof key === 'string' && req.method === 'POST') idempotent.set(`${req.method} ${url.pathname} ${key}`, { status, body: { ...body, __request: raw } });
    if (lose) return void res.destroy();
    json(status, body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: error instanceof Error ? error.message : 'stand-in failure' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const standin: StripeStandin = {
    baseUrl,
    env: () => ({
      PAYMENTS: 'stripe', STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_PUBLISHABLE_KEY: 'pk_test_standin', STRIPE_API_BASE: baseUrl,
      STRIPE_CONNECT_WEBHOOK_SECRET: connectWebhookSecret,
    }),
    secretKey,
    webhookSecret,
    webhookUrl: options.webhookUrl,
    connectWebhookUrl: undefined,
    connectWebhookSecret,
    connect,
    loseTransferAnswers: false,
    webhookMode: 'deliver',
    events: [],
    undelivered: [],
    deliver: post,
    async flush() {
      const queued = standin.undelivered.splice(0);
      for (const event of queued) {
        const status = await post(event).catch(() => 0);
        if (status < 200 || status >= 300) standin.undelivered.push(event);
      }
    },
    sign,
    async dispute(paymentIntentId) {
      const intent = intents.get(paymentIntentId);
      if (!intent) throw new Error(`no PaymentIntent ${paymentIntentId}`);
      const dispute = { id: newId('dp'), object: 'dispute', amount: intent.amount, currency: intent.currency, charge: intent.latest_charge, payment_intent: intent.id,
        reason: 'fraudulent', status: 'needs_response', created: now() };
      disputes.set(dispute.id, dispute);
      await emit('charge.dispute.created', dispute);
      return dispute.id;
    },
    async closeDispute(disputeId, outcome) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`no dispute ${disputeId}`);
      dispute.status = outcome;
      await emit('charge.dispute.closed', dispute);
    },
    async expire(sessionId) {
      await api('POST', `/v1/checkout/sessions/${sessionId}/expire`, {});
    },
    session: (id) => sessions.get(id),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return standin;
}

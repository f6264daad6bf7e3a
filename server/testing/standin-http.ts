/**
 * What the local payment processors (paypal-standin.ts, btcpay-standin.ts) share: a node:http server
 * on 127.0.0.1, JSON and HTML answers, and sending a webhook to the app.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type StandinAnswer =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: number; html: string }
  | { status: 303; location: string }
  /** The connection drops with no answer (what was done is done, the caller never hears it). */
  | { drop: true };

export async function listenStandin(handle: (request: StandinRequest) => Promise<StandinAnswer>): Promise<{ origin: string; server: Server }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://standin');
      handle({ method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: request.headers, body: Buffer.concat(chunks) })
        .catch((error: unknown): StandinAnswer => ({ status: 500, json: { message: error instanceof Error ? error.message : 'failed' } }))
        .then((answer) => {
          if ('drop' in answer) response.destroy();
          else if ('location' in answer) response.writeHead(303, { location: answer.location }).end();
          else if ('html' in answer) response.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.html);
          else response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(JSON.stringify(answer.json));
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

export function closeStandin(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A local processor's lifecycle: listening on a free port of 127.0.0.1, its address, closing. */
export abstract class StandinServer {
  private server: Server | undefined;
  protected origin = '';

  protected abstract handle(request: StandinRequest): Promise<StandinAnswer>;

  async start(): Promise<this> {
    const { origin, server } = await listenStandin((request) => this.handle(request));
    this.origin = origin;
    this.server = server;
    return this;
  }

  close(): Promise<void> {
    return this.server ? closeStandin(this.server) : Promise.resolve();
  }

  get url(): string {
    return this.origin;
  }
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A small page with the processor's name, some lines and buttons that POST to the given paths. */
export function standinPage(title: string, lines: string[], buttons: { label: string; action: string }[], links: { label: string; href: string }[] = []): string {
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}form{display:inline}button,a.button{margin:.5rem .5rem 0 0;padding:.6rem 1rem;font:inherit}</style>',
    `</head><body><h1>${escapeHtml(title)}</h1>`,
    ...lines.map((line) => `<p>${escapeHtml(line)}</p>`),
    ...buttons.map((b) => `<form method="post" action="${escapeHtml(b.action)}"><button type="submit">${escapeHtml(b.label)}</button></form>`),
    ...links.map((l) => `<p><a class="button" href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a></p>`),
    '</body></html>',
  ].join('\n');
}

export interface DeliveredWebhook {
  headers: Record<string, string>;
  /** The raw body as sent (what a signature covers). */
  body: string;
  /** The app's answer, when a webhook URL is set. */
  status?: number;
}

/** POSTs a webhook to `url` when one is set; it is recorded either way. */
export async function sendWebhook(url: string | undefined, delivery: DeliveredWebhook): Promise<DeliveredWebhook> {
  if (url) {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...delivery.headers }, body: delivery.body }).catch(() => null);
    delivery.status = response?.status ?? 0;
    await response?.text().catch(() => '');
  }
  return delivery;
}

/** An endpoint that takes webhooks as the app would (tests of the stand-ins' delivery): raw body and headers. */
export async function startWebhookReceiver(): Promise<{ url: string; received: { headers: StandinRequest['headers']; body: Buffer }[]; close(): Promise<void> }> {
  const received: { headers: StandinRequest['headers']; body: Buffer }[] = [];
  const { origin, server } = await listenStandin(async (request) => {
    received.push({ headers: request.headers, body: request.body });
    return { status: 200, json: { received: true } };
  });
  return { url: `${origin}/api/wallet/webhooks/test`, received, close: () => closeStandin(server) };
}

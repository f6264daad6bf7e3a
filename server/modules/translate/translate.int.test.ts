import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { startTestApp, type TestApp } from '../../testing/harness';
import { TRANSLATIONS_PER_MINUTE } from './service';

/** What the fake LibreTranslate server answers next. */
type Mode = 'translate' | 'fail' | 'nonsense' | 'hang-up';

/** A LibreTranslate-compatible server speaking the /translate protocol, with switchable trouble. */
function startLibreTranslate() {
  const received: Array<Record<string, unknown>> = [];
  let mode: Mode = 'translate';
  const readJson = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
  };
  const server: Server = createServer((request, response) => {
    void readJson(request).then((body) => {
      received.push({ path: request.url, ...body });
      if (mode === 'hang-up') return request.socket.destroy();
      response.setHeader('content-type', 'application/json');
      if (request.method !== 'POST' || request.url !== '/translate') response.statusCode = 404;
      else if (mode === 'fail') response.statusCode = 500;
      response.end(JSON.stringify(mode === 'nonsense' ? { answer: 42 } : response.statusCode === 200 ? { translatedText: `[${String(body.target)}] ${String(body.q)}` } : { error: 'boom' }));
    });
  });
  return {
    received,
    setMode: (next: Mode) => {
      mode = next;
    },
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const upstream = startLibreTranslate();
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ TRANSLATE_URL: await upstream.listen() });
});
afterAll(async () => {
  await t.close();
  await upstream.close();
});

async function signedIn() {
  return t.given.signedIn(await t.given.user());
}

describe('chat translation', () => {
  it('translates through the LibreTranslate server', async () => {
    upstream.setMode('translate');
    const client = await signedIn();
    const res = await client.post('/api/translate', { message: '  hola a todos  ', lang: 'pt-BR' });
    expect(res.body).toEqual({ response: 'success', translated: '[pt-BR] hola a todos' });
    expect(upstream.received.at(-1)).toEqual({ path: '/translate', q: 'hola a todos', source: 'auto', target: 'pt-BR', format: 'text' });
  });

  it('answers 502 when the server fails, answers nonsense or hangs up, never 500', async () => {
    const client = await signedIn();
    for (const mode of ['fail', 'nonsense', 'hang-up'] as const) {
      upstream.setMode(mode);
      const res = await client.post('/api/translate', { message: 'hello', lang: 'de' });
      expect(res.status, mode).toBe(502);
      expect(res.body).toEqual({ response: 'translation_unavailable', message: MSG.translationUnavailable });
    }
    upstream.setMode('translate');
  });

  it('refuses guests, bad languages and empty text', async () => {
    const guest = await t.client().post('/api/translate', { message: 'hello', lang: 'de' });
    expect(guest.status).toBe(401);
    expect(guest.body.message).toBe(MSG.notLoggedIn);
    const client = await signedIn();
    const lang = await client.post('/api/translate', { message: 'hello', lang: 'german!' });
    expect(lang.status).toBe(400);
    expect(lang.body.field).toBe('lang');
    expect((await client.post('/api/translate', { message: '   ', lang: 'de' })).status).toBe(400);
  });

  it(`limits each user to ${TRANSLATIONS_PER_MINUTE} a minute`, async () => {
    upstream.setMode('translate');
    const client = await signedIn();
    for (let i = 0; i < TRANSLATIONS_PER_MINUTE; i++) {
      expect((await client.post('/api/translate', { message: `line ${i}`, lang: 'fr' })).status).toBe(200);
    }
    const limited = await client.post('/api/translate', { message: 'one more', lang: 'fr' });
    expect(limited.status).toBe(429);
    expect((await (await signedIn()).post('/api/translate', { message: 'someone else', lang: 'fr' })).status).toBe(200);
  });
});

describe('chat translation when TRANSLATE_URL is unset', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await startTestApp();
  });
  afterAll(() => plain.close());

  it('answers 404 and says so in the app config', async () => {
    const client = await plain.given.signedIn(await plain.given.user());
    const res = await client.post('/api/translate', { message: 'hello', lang: 'de' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ response: 'not_found', message: MSG.translationNotConfigured });
    expect((await plain.client().post('/api/translate', { message: 'hello', lang: 'de' })).status).toBe(401);
    expect((await plain.client().get('/api/meta/app-config')).body.translate).toBe(false);
    expect((await t.client().get('/api/meta/app-config')).body.translate).toBe(true);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accounts, system } from '../../common/api';
import { MSG } from '../../common/messages';
import { ApiError, call, resetCsrfToken } from './client';

type Handler = (url: string, init: RequestInit) => { status: number; body: unknown };

function mockFetch(handler: Handler) {
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const { status, body } = handler(url, init);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const header = (init: RequestInit | undefined, name: string) => (init?.headers as Record<string, string>)[name];

beforeEach(() => resetCsrfToken());
afterEach(() => vi.unstubAllGlobals());

describe('call', () => {
  it('sends GET input as a query string with the skin header and parses the success envelope', async () => {
    const fetchMock = mockFetch(() => ({ status: 200, body: { response: 'success', messages: [] } }));
    const out = await call(system.getSystemMessages, { locale: 'en' });
    expect(out).toEqual({ response: 'success', messages: [] });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/user/get-system-messages?locale=en');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('same-origin');
    expect(header(init, 'X-Service')).toBe('limelight');
    expect(header(init, 'X-CSRF-Token')).toBeUndefined();
  });

  it('sends POST input as JSON with a CSRF token fetched once', async () => {
    const fetchMock = mockFetch((url) =>
      url === '/api/csrf-token' ? { status: 200, body: { response: 'success', token: 't1' } } : { status: 200, body: { response: 'success' } },
    );
    await call(accounts.logout, {});
    await call(accounts.logout, {});
    const posts = fetchMock.mock.calls.filter(([url]) => url === '/api/user/logout');
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/csrf-token')).toHaveLength(1);
    expect(posts).toHaveLength(2);
    expect(header(posts[0]![1], 'X-CSRF-Token')).toBe('t1');
    expect(header(posts[0]![1], 'Content-Type')).toBe('application/json');
    expect(posts[0]![1].body).toBe('{}');
  });

  it('refetches the CSRF token and retries once after a csrf refusal', async () => {
    let tokens = 0;
    let attempts = 0;
    mockFetch((url) => {
      if (url === '/api/csrf-token') return { status: 200, body: { response: 'success', token: `t${++tokens}` } };
      attempts += 1;
      return attempts === 1 ? { status: 403, body: { response: 'csrf', message: MSG.csrf } } : { status: 200, body: { response: 'success' } };
    });
    await expect(call(accounts.logout, {})).resolves.toEqual({ response: 'success' });
    expect(tokens).toBe(2);
    expect(attempts).toBe(2);
  });

  it('throws an ApiError carrying the validation details', async () => {
    mockFetch((url) =>
      url === '/api/csrf-token'
        ? { status: 200, body: { response: 'success', token: 't' } }
        : { status: 400, body: { response: 'validation', message: MSG.emailInvalid, field: 'email', errors: { email: MSG.emailInvalid } } },
    );
    const error = await call(accounts.logout, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation', message: MSG.emailInvalid, field: 'email', errors: { email: MSG.emailInvalid } });
  });

  it('exposes the code of a refusal, and reads a code it does not know as internal', async () => {
    mockFetch(() => ({ status: 402, body: { response: 'stream_payment_required', message: 'Tip 30 coins to watch this stream.', tip_owed: 30 } }));
    await expect(call(system.getSystemMessages, { locale: 'en' })).rejects.toMatchObject({ code: 'stream_payment_required', body: { tip_owed: 30 } });
    mockFetch(() => ({ status: 418, body: { response: 'teapot', message: 'I am a teapot' } }));
    await expect(call(system.getSystemMessages, { locale: 'en' })).rejects.toMatchObject({ code: 'internal', status: 418, message: 'I am a teapot' });
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('offline'))));
    await expect(call(system.getSystemMessages, { locale: 'en' })).rejects.toMatchObject({ code: 'network', status: 0 });
  });

  it('refuses a success answer that breaks the contract', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockFetch(() => ({ status: 200, body: { response: 'success', is_logged_in: 'yes' } }));
    await expect(call(accounts.checkUserSession, {})).rejects.toMatchObject({ code: 'contract', message: MSG.internal });
  });
});

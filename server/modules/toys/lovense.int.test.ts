/**
 * TOYS=lovense against a local fake of Lovense's developer API, implementing its documented request and
 * answer shapes (getToken, getQrCode), and the Lovense app's callback with the host's toys as Lovense
 * documents it (uid, utoken, toys, the app's ports, domain, versions, platform; no time or signature of
 * its own): proven by the one-time utoken we made for the QR, taken once, within its window.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { startTestApp, type SignedInUser, type TestApp } from '../../testing/harness';
import { closeCheckingLedger } from '../../testing/ledger-invariants';
import { loadSecret } from '../../platform/secrets';
import { CALLBACK_WINDOW_MS } from './callbacks';
import { utokenOf } from './providers';

const DEVELOPER_TOKEN = 'dev-token-for-the-fake';
let t: TestApp;
let fake: Server;
const seen: Array<{ path: string; body: Record<string, unknown> }> = [];
/** The fake's next answers: 'ok', a failure status, or Lovense's own failure code. */
let mode: 'ok' | 'http-500' | 'code-1' = 'ok';

const readBody = (request: IncomingMessage) => new Promise<string>((resolve) => {
  let text = '';
  request.on('data', (chunk: Buffer) => (text += chunk.toString()));
  request.on('end', () => resolve(text));
});

beforeAll(async () => {
  fake = createServer((request, response) => {
    void readBody(request).then((text) => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      seen.push({ path: request.url ?? '', body });
      response.setHeader('content-type', 'application/json');
      if (mode === 'http-500') {
        response.statusCode = 500;
        response.end('{}');
        return;
      }
      if (body.token !== DEVELOPER_TOKEN || mode === 'code-1') {
        response.end(JSON.stringify({ code: 50001, message: 'Invalid token', result: false }));
        return;
      }
      if (request.url === '/api/basicApi/getToken') {
        response.end(JSON.stringify({ code: 0, message: 'Success', data: { authToken: `auth-${String(body.uid)}` } }));
      } else if (request.url === '/api/lan/getQrCode') {
        response.end(JSON.stringify({ code: 0, message: 'Success', result: true, data: { qr: `https://qr.example/${String(body.uid)}.jpg`, code: 'ABC123' } }));
      } else {
        response.statusCode = 404;
        response.end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const { port } = fake.address() as { port: number };
  t = await startTestApp({ TOYS: 'lovense', LOVENSE_DEVELOPER_TOKEN: DEVELOPER_TOKEN, LOVENSE_PLATFORM: 'Limelight Test', LOVENSE_API_URL: `http://127.0.0.1:${port}` });
});
afterAll(async () => {
  await closeCheckingLedger(t);
  fake.close();
});

async function meeting() {
  const host = await t.given.signedInUser();
  const viewer = await t.given.follower(host.user);
  const res = await host.client.post('/api/user/create-meeting', { audience: 'PRIVATE', audience_ids: String(viewer.user.id), title: 'Lovense call', start_time: new Date(Date.now() + 3_600_000).toISOString() });
  return { host, viewer, where: { stream_id: (res.body.data as { meeting_id: number }).meeting_id, room: 'meeting' } };
}

const act = (who: SignedInUser, where: Record<string, unknown>, event: string, fields: Record<string, unknown> = {}) =>
  who.client.post('/api/user/lovense-action', { event, ...where, ...fields });

describe('the Lovense provider', () => {
  it("gets the broadcaster's auth token with the developer token, answering {platform, authToken, uid}", async () => {
    const { host, where } = await meeting();
    mode = 'ok';
    const res = await host.client.get('/api/user/lovense-token', { user_id: host.user.id, ...where });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ platform: 'Limelight Test', authToken: `auth-${host.user.id}`, uid: String(host.user.id) });
    const call = seen.findLast((s) => s.path === '/api/basicApi/getToken')!;
    expect(call.body).toMatchObject({ token: DEVELOPER_TOKEN, uid: String(host.user.id), utoken: expect.stringMatching(/^\d+\.[0-9a-f]{24}\.[0-9a-f]{40}$/) });
    // The developer token never reaches the browser.
    expect(JSON.stringify(res.body)).not.toContain(DEVELOPER_TOKEN);
    const device = await host.client.get('/api/user/lovense-device');
    expect(device.body.data).toMatchObject({ provider: 'lovense', sdk_url: 'https://api.lovense-api.com/basic-sdk/core.min.js', connected: false });
  });

  it("makes the host's QR with getQrCode (v 2), keeps INIT when Lovense fails, and takes the app's verified callback", async () => {
    const { host, viewer, where } = await meeting();
    mode = 'http-500';
    const failed = await act(host, where, 'GET_QR_CODE', { viewer_id: viewer.user.id, tip_amount: 10 });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ response: 'toy_service_unavailable', message: MSG.toyQrFailed });
    expect((await act(host, where, 'GET_LOVENSE', { viewer_id: viewer.user.id })).body.data).toMatchObject({ access: 'INIT', qr_data: null });
    mode = 'code-1';
    expect((await act(host, where, 'REGENERATE_QR_CODE', { viewer_id: viewer.user.id })).status).toBe(502);

    mode = 'ok';
    const made = await act(host, where, 'REGENERATE_QR_CODE', { viewer_id: viewer.user.id });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.data).toMatchObject({ access: 'PENDING', qr_data: { qr: `https://qr.example/${host.user.id}.jpg`, code: 'ABC123' } });
    const qrCall = seen.findLast((s) => s.path === '/api/lan/getQrCode')!;
    expect(qrCall.body).toMatchObject({ token: DEVELOPER_TOKEN, uid: String(host.user.id), v: 2, utoken: expect.any(String) });

    // The app's callback, as Lovense documents it, with the utoken we gave: the host's toys.
    const callback = {
      uid: String(host.user.id), appVersion: '4.0.3', utoken: qrCall.body.utoken, wssPort: '34568', httpPort: '34567', wsPort: '34567', appType: 'remote',
      domain: '192-168-1-44.lovense.club', httpsPort: '34568', version: '101', platform: 'android',
      toys: { a1: { nickName: '', name: 'max', id: 'a1', status: 1 }, b2: { nickName: 'Off', name: 'nora', id: 'b2', status: 0 } },
    };
    const forged = await t.client().request('POST', '/api/lovense/callback', { body: { ...callback, utoken: 'forged' } });
    expect(forged.status).toBe(403);
    const otherUser = await t.client().request('POST', '/api/lovense/callback', { body: { ...callback, uid: String(viewer.user.id) } });
    expect(otherUser.status).toBe(403);
    const ok = await t.client().request('POST', '/api/lovense/callback', { body: callback });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const device = await host.client.get('/api/user/lovense-device');
    expect(device.body.data).toMatchObject({ connected: true, commands: ['Vibrate', 'Pump'], toys: [{ id: 'a1', name: 'max', online: true }, { id: 'b2', name: 'nora', online: false }] });

    // The same callback again (a replay, or its body sent by anyone who saw it) is refused and changes nothing.
    const replayed = await t.client().request('POST', '/api/lovense/callback', { body: { ...callback, toys: {} } });
    expect(replayed.status).toBe(403);
    expect(replayed.body).toMatchObject({ response: 'forbidden', message: MSG.toyCallbackReplayed });
    expect(((await host.client.get('/api/user/lovense-device')).body.data as { toys: unknown[] }).toys).toHaveLength(2);
    // A utoken made longer ago than the callback window (a QR left on screen, a token kept) is refused too.
    const secret = await loadSecret(t.resources.database.db, 'toys-lovense');
    const stale = utokenOf(secret, host.user.id, { at: new Date(Date.now() - CALLBACK_WINDOW_MS - 60_000), nonce: 'ab'.repeat(12) });
    const late = await t.client().request('POST', '/api/lovense/callback', { body: { ...callback, utoken: stale } });
    expect([late.status, late.body.message]).toEqual([403, MSG.toyCallbackReplayed]);
    // So is one dated ahead of our clock (made to outlive the window).
    const ahead = utokenOf(secret, host.user.id, { at: new Date(Date.now() + 5 * 60_000), nonce: 'cd'.repeat(12) });
    expect((await t.client().request('POST', '/api/lovense/callback', { body: { ...callback, utoken: ahead } })).status).toBe(403);
    // A new QR carries a new utoken: the host's app is heard again, once.
    await act(host, where, 'REGENERATE_QR_CODE', { viewer_id: viewer.user.id });
    const again = { ...callback, utoken: seen.findLast((s) => s.path === '/api/lan/getQrCode')!.body.utoken, toys: { b2: { nickName: '', name: 'nora', id: 'b2', status: 1 } } };
    expect(again.utoken).not.toBe(callback.utoken);
    expect((await t.client().request('POST', '/api/lovense/callback', { body: again })).status).toBe(200);
    expect((await host.client.get('/api/user/lovense-device')).body.data).toMatchObject({ toys: [{ id: 'b2', name: 'nora', online: true }] });
    // With Lovense the page reports the connection only: the toys stay the app's.
    await host.client.post('/api/user/lovense-device', { connected: true, toys: [{ id: 'x', name: 'solace' }] });
    expect(((await host.client.get('/api/user/lovense-device')).body.data as { toys: Array<{ id: string }> }).toys.map((toy) => toy.id)).toEqual(['b2']);
  });
});

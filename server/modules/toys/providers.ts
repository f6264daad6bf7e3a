/**
 * The toy providers behind one interface, chosen by TOYS (decision 0020):
 * - `simulated` (default): no outside service; the QR is a picture the host's page shows, the host's
 *   page switches the virtual toy on and off (`lovense-device`), commands go to the host's page;
 * - `lovense`: Lovense's documented developer API, called from the server with the developer token —
 *   `POST {LOVENSE_API_URL}/api/basicApi/getToken` (the browser SDK's auth token for one user) and
 *   `POST {LOVENSE_API_URL}/api/lan/getQrCode` (the QR the host's Lovense Remote app scans); the app
 *   then calls our callback with the host's toys, carrying back the `utoken` we gave, which proves it.
 *   Lovense's documented callback carries no time, nonce nor signature of its own (uid, utoken, toys,
 *   the app's ports, domain, versions and platform), so our `utoken` is the one-time value: made for
 *   each QR with the time it was made and a random nonce, under an HMAC of our secret. A callback is
 *   taken once per utoken (callbacks.ts keeps the nonces) and only within CALLBACK_WINDOW_MS of its QR.
 * The developer token is never logged nor sent to a browser; failures answer 502 without Lovense's text.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Toy, ToyProvider } from '../../../common/api/toys';
import { MSG } from '../../../common/messages';
import { appError } from '../../platform/http/errors';

export interface ToyUser {
  userId: number;
  name: string;
}

export interface QrCode {
  /** An image address (Lovense's hosted picture, or a data: URL for the simulated toy). */
  qr: string;
  /** The same as a short text code the app also accepts. */
  code: string;
}

export interface ToyProviderApi {
  kind: ToyProvider;
  /** Where the browser loads the SDK from (null: nothing to load). */
  sdkUrl: string | null;
  /** The QR the host's app scans to connect their toys. */
  qrCode(host: ToyUser): Promise<QrCode>;
  /** The browser SDK's auth token for this user. */
  authToken(user: ToyUser): Promise<{ platform: string; authToken: string; uid: string }>;
  /**
   * The Lovense app's callback body, verified: whose toys they are and the utoken's one-time value and
   * time; null when it does not prove itself (its freshness and first use are callbacks.ts's to check).
   */
  verifyCallback(body: unknown): VerifiedCallback | null;
}

export interface VerifiedCallback {
  userId: number;
  toys: Toy[];
  /** The utoken's nonce: a callback is taken once per nonce. */
  nonce: string;
  /** When the utoken (and its QR) was made. */
  issuedAt: Date;
}

/** Lovense's `uid` for our user: the user id as text (the callback names it back). */
const uidOf = (userId: number) => String(userId);

/**
 * `utoken`, Lovense's "user token for your own verification": `<seconds>.<nonce>.<mac>`, the time it was
 * made and a random nonce, with an HMAC of both and the uid under our secret.
 */
export function utokenOf(secret: string, userId: number, issue: { at: Date; nonce: string }): string {
  const seconds = Math.floor(issue.at.getTime() / 1000);
  const mac = createHmac('sha256', secret).update(`lovense-utoken:${uidOf(userId)}:${seconds}:${issue.nonce}`).digest('hex').slice(0, 40);
  return `${seconds}.${issue.nonce}.${mac}`;
}

const freshUtoken = (secret: string, userId: number) => utokenOf(secret, userId, { at: new Date(), nonce: randomBytes(12).toString('hex') });
const UTOKEN = /^(\d{1,12})\.([0-9a-f]{24})\.([0-9a-f]{40})$/;

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** A picture standing for the QR the virtual toy "scans": the code in a frame. */
function simulatedQrImage(code: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200"><rect width="200" height="200" fill="#fff"/>`
    + `<rect x="10" y="10" width="180" height="180" fill="none" stroke="#000" stroke-width="8"/>`
    + `<text x="100" y="92" font-family="monospace" font-size="18" text-anchor="middle">SIMULATED</text>`
    + `<text x="100" y="124" font-family="monospace" font-size="24" text-anchor="middle">${code}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export function simulatedProvider(secret: string): ToyProviderApi {
  return {
    kind: 'simulated',
    sdkUrl: null,
    async qrCode() {
      const code = randomBytes(4).toString('hex').toUpperCase();
      return { qr: simulatedQrImage(code), code };
    },
    async authToken(user) {
      return { platform: 'simulated', authToken: createHmac('sha256', secret).update(`simulated-token:${user.userId}`).digest('hex'), uid: uidOf(user.userId) };
    },
    verifyCallback: () => null,
  };
}

/** Lovense's answer envelope: `code` 0 means success (its documented shape). */
const lovenseAnswer = <T extends z.ZodType>(data: T) => z.object({ code: z.number(), message: z.string().optional(), data: data.optional().nullable() });
const tokenAnswer = lovenseAnswer(z.object({ authToken: z.string().min(1) }));
const qrAnswer = lovenseAnswer(z.object({ qr: z.string().min(1), code: z.string().default('') }));

/** The Lovense app's callback (Lovense's documented shape): the toys keyed by id, `status` 1 when on. */
const callbackBody = z.object({
  uid: z.string().regex(/^[1-9][0-9]{0,15}$/),
  utoken: z.string().min(1).max(200),
  toys: z.record(z.string(), z.object({
    id: z.string().min(1).max(64),
    name: z.string().max(64).default(''),
    nickName: z.string().max(64).default(''),
    status: z.union([z.number(), z.string()]).optional(),
  })).default({}),
}).loose();

export interface LovenseSettings {
  developerToken: string;
  platform: string;
  apiUrl: string;
  sdkUrl: string;
}

export function lovenseProvider(settings: LovenseSettings, secret: string, options: { timeoutMs?: number; fetch?: typeof fetch } = {}): ToyProviderApi {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const doFetch = options.fetch ?? fetch;

  async function post<T extends z.ZodType>(path: string, body: Record<string, unknown>, answer: T, failure: Parameters<typeof appError>[1]): Promise<z.output<T>> {
    let parsed: z.output<T>;
    try {
      const res = await doFetch(`${settings.apiUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new Error(`status ${res.status}`);
      parsed = answer.parse(await res.json());
    } catch {
      // Lovense's text (or the error) may quote what we sent: never passed on.
      throw appError('toy_service_unavailable', failure);
    }
    return parsed;
  }

  const who = (user: ToyUser) => ({ token: settings.developerToken, uid: uidOf(user.userId), uname: user.name, utoken: freshUtoken(secret, user.userId) });

  return {
    kind: 'lovense',
    sdkUrl: settings.sdkUrl,
    async qrCode(host) {
      const answer = await post('/api/lan/getQrCode', { ...who(host), v: 2 }, qrAnswer, MSG.toyQrFailed);
      if (answer.code !== 0 || !answer.data) throw appError('toy_service_unavailable', MSG.toyQrFailed);
      return { qr: answer.data.qr, code: answer.data.code };
    },
    async authToken(user) {
      const answer = await post('/api/basicApi/getToken', who(user), tokenAnswer, MSG.toyServiceUnavailable);
      if (answer.code !== 0 || !answer.data) throw appError('toy_service_unavailable');
      return { platform: settings.platform, authToken: answer.data.authToken, uid: uidOf(user.userId) };
    },
    verifyCallback(body) {
      const parsed = callbackBody.safeParse(body);
      if (!parsed.success) return null;
      const userId = Number(parsed.data.uid);
      const token = UTOKEN.exec(parsed.data.utoken);
      if (!Number.isSafeInteger(userId) || !token) return null;
      const issue = { at: new Date(Number(token[1]) * 1000), nonce: token[2]! };
      if (!sameText(parsed.data.utoken, utokenOf(secret, userId, issue))) return null;
      const toys = Object.values(parsed.data.toys).slice(0, 10).map((t) => ({
        id: t.id, name: (t.name || 'unknown').slice(0, 64), nickname: t.nickName, online: t.status === undefined || Number(t.status) === 1,
      }));
      return { userId, toys, nonce: issue.nonce, issuedAt: issue.at };
    },
  };
}

/**
 * A push service on 127.0.0.1 for tests: it plays a browser's push service (RFC 8030) and the browser
 * itself — it makes subscriptions with real P-256 keys, takes the server's encrypted messages, and
 * opens them as the browser would (RFC 8291, aes128gcm), so a test reads exactly what a person's
 * browser would show.
 */
import { createDecipheriv, createECDH, hkdfSync, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  /** The decrypted JSON payload. */
  payload: Record<string, unknown>;
}

interface Browser {
  ecdh: ECDH;
  auth: Buffer;
}

function decrypt(body: Buffer, browser: Browser): string {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = browser.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, browser.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then padding zeros.
  return padded.subarray(0, padded.lastIndexOf(2)).toString('utf8');
}

export class LocalPushService {
  readonly received: ReceivedPush[] = [];
  private readonly browsers = new Map<string, Browser>();
  /** Paths answered with this status instead of 201 (410: the subscription is gone). */
  readonly answer = new Map<string, number>();
  private server: Server | undefined;
  private origin = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '';
        const status = this.answer.get(path) ?? 201;
        const browser = this.browsers.get(path);
        if (status === 201 && browser) {
          this.received.push({ path, headers: request.headers, payload: JSON.parse(decrypt(Buffer.concat(chunks), browser)) as Record<string, unknown> });
        }
        response.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The host:port to allow (PUSH_SERVICE_HOSTS). */
  get host(): string {
    return this.origin.slice('http://'.length);
  }

  /** A new browser's subscription, as PushSubscription.toJSON() gives it. */
  subscription(): { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } } {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const path = `/push/${randomBytes(8).toString('hex')}`;
    this.browsers.set(path, { ecdh, auth });
    return { endpoint: `${this.origin}${path}`, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
  }

  to(endpoint: string): ReceivedPush[] {
    return this.received.filter((push) => endpoint.endsWith(push.path));
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

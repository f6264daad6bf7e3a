/**
 * PayPal's REST API as both PayPal integrations call it (deposits, decision 0055; payouts, decision
 * 0064): an OAuth2 client-credentials token kept until shortly before it expires (a 401 fetches a new one
 * and repeats the call once), and webhook deliveries checked by PayPal itself
 * (`POST /v1/notifications/verify-webhook-signature`) against the id of the webhook they were sent to.
 */
import { callProcessor, field, header, ProcessorUnavailable, text, type ProcessorAnswer } from './provider-http';

export interface PayPalCredentials {
  apiBase: string;
  clientId: string;
  clientSecret: string;
}

export const PAYPAL = 'PayPal';
export const PAYPAL_TRANSMISSION_HEADERS = ['paypal-transmission-id', 'paypal-transmission-time', 'paypal-transmission-sig', 'paypal-cert-url', 'paypal-auth-algo'] as const;

/** The first issue of a PayPal error answer ({name, message, details: [{issue, description}]}). */
export function paypalIssue(answer: ProcessorAnswer): { issue: string; description: string } {
  const detail = (field(answer.body, 'details') as unknown[] | undefined)?.[0];
  return {
    issue: text(field(detail, 'issue'), 100) ?? text(field(answer.body, 'name'), 100) ?? `HTTP ${answer.status}`,
    description: text(field(detail, 'description'), 300) ?? text(field(answer.body, 'message'), 300) ?? 'PayPal refused the request.',
  };
}

export function createPayPalClient(options: PayPalCredentials) {
  let token: { value: string; freshUntil: number } | undefined;
  let fetching: Promise<string> | undefined;

  const fetchToken = async (): Promise<string> => {
    const answer = await callProcessor(PAYPAL, {
      method: 'POST',
      url: `${options.apiBase}/v1/oauth2/token`,
      headers: {
        authorization: `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const value = text(field(answer.body, 'access_token'), 4000);
    const lifetime = field(answer.body, 'expires_in');
    if (answer.status !== 200 || !value || typeof lifetime !== 'number') throw new ProcessorUnavailable(PAYPAL, `no access token (HTTP ${answer.status})`);
    // Renewed a little before PayPal forgets it, so that a call never starts with a token about to lapse.
    token = { value, freshUntil: Date.now() + Math.max(0, lifetime - Math.min(300, lifetime / 10)) * 1000 };
    return value;
  };

  const accessToken = (renew: boolean): Promise<string> => {
    if (!renew && token && token.freshUntil > Date.now()) return Promise.resolve(token.value);
    fetching ??= fetchToken().finally(() => {
      fetching = undefined;
    });
    return fetching;
  };

  const api = async (method: 'GET' | 'POST', path: string, body?: string, requestId?: string): Promise<ProcessorAnswer> => {
    const send = async (renew: boolean) =>
      callProcessor(PAYPAL, {
        method,
        url: `${options.apiBase}${path}`,
        headers: {
          authorization: `Bearer ${await accessToken(renew)}`,
          accept: 'application/json',
          prefer: 'return=representation',
          ...(requestId ? { 'paypal-request-id': requestId } : {}),
        },
        body,
      });
    const answer = await send(false);
    if (answer.status !== 401) return answer;
    token = undefined;
    return send(true);
  };

  /** PayPal says whether it sent this delivery to the webhook `webhookId` (its certificate, its CRC of the body). */
  async function verified(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, webhookId: string): Promise<boolean> {
    const [id, time, sig, certUrl, algo] = PAYPAL_TRANSMISSION_HEADERS.map((name) => header(headers, name)!);
    // The event goes back byte for byte: parsed and serialized again, it may no longer be what was signed.
    const request = `{"auth_algo":${JSON.stringify(algo)},"cert_url":${JSON.stringify(certUrl)},"transmission_id":${JSON.stringify(id)},"transmission_sig":${JSON.stringify(sig)},"transmission_time":${JSON.stringify(time)},"webhook_id":${JSON.stringify(webhookId)},"webhook_event":${rawBody.toString('utf8')}}`;
    const answer = await api('POST', '/v1/notifications/verify-webhook-signature', request);
    if (answer.status === 200) return field(answer.body, 'verification_status') === 'SUCCESS';
    if (answer.status === 400 || answer.status === 422) return false;
    throw new ProcessorUnavailable(PAYPAL, `verifying a webhook: ${paypalIssue(answer).issue}`);
  }

  return {
    api,

    /** A delivery to the webhook `webhookId`: its event once signed, well formed and confirmed by PayPal; why not otherwise. */
    async verifiedEvent(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, webhookId: string): Promise<PayPalDelivery> {
      if (PAYPAL_TRANSMISSION_HEADERS.some((name) => !header(headers, name))) return { ok: false, reason: 'unsigned' };
      let event: unknown;
      try {
        event = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return { ok: false, reason: 'malformed' };
      }
      const type = text(field(event, 'event_type'), 200);
      if (!text(field(event, 'id'), 200) || !type || typeof field(event, 'resource') !== 'object') return { ok: false, reason: 'malformed' };
      if (!(await verified(rawBody, headers, webhookId))) return { ok: false, reason: 'bad_signature' };
      return { ok: true, type, event: event as Record<string, unknown> };
    },
  };
}

export type PayPalDelivery = { ok: true; type: string; event: Record<string, unknown> } | { ok: false; reason: 'unsigned' | 'malformed' | 'bad_signature' };

export type PayPalClient = ReturnType<typeof createPayPalClient>;

/** The VAPID public key of the installation, as PushManager wants it. */

/**
 * A VAPID public key as the server writes it (base64url, padded or not) as the bytes PushManager's
 * `applicationServerKey` takes. Throws on text that is not base64url.
 */
export function urlBase64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const trimmed = text.trim().replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(trimmed) || trimmed.length % 4 === 1) throw new Error('Not a base64url text');
  const base64 = trimmed.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (trimmed.length % 4)) % 4);
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i += 1) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Whether the subscription the browser holds was made with this key (else it is renewed with the new one). */
export function sameKey(held: ArrayBuffer | null | undefined, key: Uint8Array): boolean {
  if (!held) return true;
  const bytes = new Uint8Array(held);
  return bytes.length === key.length && bytes.every((byte, i) => byte === key[i]);
}

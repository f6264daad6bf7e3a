/**
 * Tax ids sealed at rest (decision 0062): AES-256-GCM with a fresh 96-bit nonce per seal, the user id as
 * additional data, so a sealed id copied to another user's row does not open. Anything changed in the
 * text, the nonce or the tag is refused by the tag check.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';

export class SealBroken extends Error {
  constructor() {
    super('sealed tax id does not open: changed, another user\'s, or another key');
  }
}

/** The 32-byte key from its configured writing: base64 (44 characters) or hex (64); null for anything else. */
export function taxKeyFrom(text: string): Buffer | null {
  const bytes = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? Buffer.from(text, 'base64') : null;
  return bytes?.length === 32 ? bytes : null;
}

export function createTaxIdCipher(key: Buffer) {
  if (key.length !== 32) throw new Error('the tax data key must be 32 bytes');
  const context = (userId: number) => Buffer.from(`tax-id:${userId}`);
  return {
    seal(userId: number, taxId: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, key, iv).setAAD(context(userId));
      const text = Buffer.concat([cipher.update(taxId, 'utf8'), cipher.final()]);
      return [VERSION, iv, text, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(userId: number, sealed: string): string {
      const [version, iv, text, tag, ...rest] = sealed.split('.');
      if (version !== VERSION || !iv || !text || !tag || rest.length > 0) throw new SealBroken();
      try {
        const nonce = Buffer.from(iv, 'base64url');
        if (nonce.length !== 12) throw new SealBroken();
        // The full 16-byte tag only: a shortened tag would be accepted by GCM otherwise.
        const decipher = createDecipheriv(ALGORITHM, key, nonce, { authTagLength: 16 }).setAAD(context(userId));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(text, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        throw new SealBroken();
      }
    },
  };
}
export type TaxIdCipher = ReturnType<typeof createTaxIdCipher>;

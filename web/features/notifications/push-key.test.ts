import { describe, expect, it } from 'vitest';
import { sameKey, urlBase64ToBytes } from './push-key';

describe('urlBase64ToBytes', () => {
  it('reads base64url, padded or not, as bytes', () => {
    expect([...urlBase64ToBytes('AQID')]).toEqual([1, 2, 3]);
    expect([...urlBase64ToBytes('-_8')]).toEqual([251, 255]);
    expect([...urlBase64ToBytes('-_8=')]).toEqual([251, 255]);
    expect([...urlBase64ToBytes('AA')]).toEqual([0]);
    expect(urlBase64ToBytes('').length).toBe(0);
  });

  it('reads a VAPID public key as its 65 bytes (an uncompressed P-256 point)', () => {
    const point = new Uint8Array(65).map((_, i) => (i === 0 ? 4 : (i * 37) % 256));
    const text = btoa(String.fromCharCode(...point)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    expect(urlBase64ToBytes(text)).toEqual(point);
  });

  it('refuses text that is not base64url', () => {
    expect(() => urlBase64ToBytes('a+b/')).toThrow();
    expect(() => urlBase64ToBytes('abcde')).toThrow();
  });

  it('tells a subscription made with another key', () => {
    const key = urlBase64ToBytes('AQID');
    expect(sameKey(new Uint8Array([1, 2, 3]).buffer, key)).toBe(true);
    expect(sameKey(new Uint8Array([1, 2, 4]).buffer, key)).toBe(false);
    expect(sameKey(null, key)).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { MSG } from '../../../common/messages';
import { assertSameRequest, requestFingerprint } from './idempotency';

const payMeeting = { method: 'POST', path: '/api/user/pay-meeting' };

describe('requestFingerprint', () => {
  it('reads the same body the same, whatever the order of its keys or nesting', () => {
    expect(requestFingerprint(payMeeting, 7, { id: 1, amount: 250, extra: { b: [1, { y: 2, x: 1 }], a: null } }))
      .toBe(requestFingerprint(payMeeting, 7, { extra: { a: null, b: [1, { x: 1, y: 2 }] }, amount: 250, id: 1 }));
  });

  it('tells apart another body, another caller and another route', () => {
    const first = requestFingerprint(payMeeting, 7, { id: 1, amount: 250 });
    expect(requestFingerprint(payMeeting, 7, { id: 1, amount: 260 })).not.toBe(first);
    expect(requestFingerprint(payMeeting, 8, { id: 1, amount: 250 })).not.toBe(first);
    expect(requestFingerprint({ method: 'POST', path: '/api/post/purchase' }, 7, { id: 1, amount: 250 })).not.toBe(first);
    expect(requestFingerprint(payMeeting, 7, { id: 1, amount: '250' })).not.toBe(first);
  });
});

describe('assertSameRequest', () => {
  const request = { key: 'k', fingerprint: 'abc' };
  it('passes the same request and a key without a kept first request', () => {
    expect(() => assertSameRequest('abc', request)).not.toThrow();
    expect(() => assertSameRequest(undefined, request)).not.toThrow();
  });
  it('refuses another request with 409', () => {
    expect(() => assertSameRequest('xyz', request)).toThrow(expect.objectContaining({ status: 409, message: MSG.idempotencyKeyReused }));
  });
});

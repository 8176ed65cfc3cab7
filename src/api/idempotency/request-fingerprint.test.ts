import { describe, expect, it } from 'vitest';
import { requestFingerprint } from './request-fingerprint';

describe('requestFingerprint', () => {
  it('is the same for the same fields in another order, and no body or null alike', () => {
    expect(
      requestFingerprint('post', '/api/flows', { name: 'A', description: { b: 1, a: [2, { d: 3, c: 4 }] } }),
    ).toBe(
      requestFingerprint('POST', '/api/flows', { description: { a: [2, { c: 4, d: 3 }], b: 1 }, name: 'A' }),
    );
    expect(requestFingerprint('POST', '/api/x', undefined)).toBe(requestFingerprint('POST', '/api/x', null));
    expect(requestFingerprint('POST', '/api/x', null)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs with the method, the path or any value of the body', () => {
    const first = requestFingerprint('POST', '/api/flows', { name: 'A' });
    expect(requestFingerprint('PUT', '/api/flows', { name: 'A' })).not.toBe(first);
    expect(requestFingerprint('POST', '/api/flows/1', { name: 'A' })).not.toBe(first);
    expect(requestFingerprint('POST', '/api/flows', { name: 'B' })).not.toBe(first);
    expect(requestFingerprint('POST', '/api/flows', [{ name: 'A' }])).not.toBe(first);
  });
});

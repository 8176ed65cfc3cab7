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

  it('reads a body a parser made an object of as what it says it is as JSON (toJSON), not as {}', () => {
    const file = (text: string) =>
      new (class File {
        readonly #text = text;
        toJSON() {
          return this.#text;
        }
      })();
    expect(requestFingerprint('POST', '/api/x', file('a\n1\n'))).toBe(
      requestFingerprint('POST', '/api/x', 'a\n1\n'),
    );
    expect(requestFingerprint('POST', '/api/x', file('a\n1\n'))).not.toBe(
      requestFingerprint('POST', '/api/x', file('a\n2\n')),
    );
  });

  it('takes a body nested deeper than the call stack goes', () => {
    const deep = JSON.parse(`${'[{"a":'.repeat(20_000)}1${'}]'.repeat(20_000)}`);
    expect(requestFingerprint('POST', '/api/x', deep)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the sha256 of the method and path, and the body as sorted JSON', async () => {
    const { createHash } = await import('node:crypto');
    const expected = createHash('sha256')
      .update('["POST","/api/x?y=1"]\n{"a":[1,"two",null,{"b":true,"c":{}}],"z":""}')
      .digest('hex');
    expect(requestFingerprint('POST', '/api/x?y=1', { z: '', a: [1, 'two', null, { c: {}, b: true }] })).toBe(
      expected,
    );
  });
});

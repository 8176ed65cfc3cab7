import { describe, expect, it } from 'vitest';
import { createOwnKeyCipher } from './own-key-cipher';

const SECRET = 'one-secret-one-secret-one-secret-0123456789';
const OTHER_SECRET = 'another-secret-another-secret-another-0123';
const API_KEY = 'AIzaSyExample-Key_0123456789abcdefghij';

describe('own key cipher', () => {
  it('opens what it sealed, and the sealed text does not contain the key', () => {
    const cipher = createOwnKeyCipher(SECRET);
    const sealed = cipher.encrypt(API_KEY);
    expect(sealed).not.toContain(API_KEY);
    expect(sealed).not.toContain('AIza');
    expect(cipher.decrypt(sealed)).toBe(API_KEY);
    expect(createOwnKeyCipher(SECRET).decrypt(sealed)).toBe(API_KEY);
  });

  it('seals the same key differently each time', () => {
    const cipher = createOwnKeyCipher(SECRET);
    const first = cipher.encrypt(API_KEY);
    const second = cipher.encrypt(API_KEY);
    expect(first).not.toBe(second);
    expect(cipher.decrypt(second)).toBe(API_KEY);
  });

  it('refuses a tampered sealed key', () => {
    const cipher = createOwnKeyCipher(SECRET);
    const sealed = cipher.encrypt(API_KEY);
    const bytes = Buffer.from(sealed.slice(3), 'base64url');
    for (const at of [0, 14, bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[at] = altered[at]! ^ 1;
      expect(() => cipher.decrypt(`v1:${altered.toString('base64url')}`)).toThrow();
    }
    expect(() => cipher.decrypt(sealed.slice(0, 20))).toThrow();
    expect(() => cipher.decrypt(API_KEY)).toThrow();
  });

  it('cannot be opened under another secret', () => {
    const sealed = createOwnKeyCipher(SECRET).encrypt(API_KEY);
    expect(() => createOwnKeyCipher(OTHER_SECRET).decrypt(sealed)).toThrow();
  });
});

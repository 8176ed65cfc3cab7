import { Signer } from '@fastify/cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RememberingSigner } from './session-signer';

const SECRET = 'a-session-secret-of-at-least-32-characters';

describe('RememberingSigner', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('signs and checks exactly as the cookie signer does, computing a valid cookie once', () => {
    const plain = new Signer(SECRET);
    const signer = new RememberingSigner(SECRET);
    const cookie = signer.sign('sid-1');
    expect(cookie).toBe(plain.sign('sid-1'));
    const unsign = vi.spyOn(Signer.prototype, 'unsign');
    const sign = vi.spyOn(Signer.prototype, 'sign');
    for (let i = 0; i < 3; i++) {
      expect(signer.unsign(cookie)).toEqual({ valid: true, renew: false, value: 'sid-1' });
      expect(signer.sign('sid-1')).toBe(cookie);
    }
    expect(unsign).toHaveBeenCalledTimes(1);
    expect(sign).toHaveBeenCalledTimes(0);
  });

  it('checks a forged or altered cookie in full every time, and never takes it', () => {
    const signer = new RememberingSigner(SECRET);
    const cookie = signer.sign('sid-1');
    expect(signer.unsign(cookie).valid).toBe(true);
    const unsign = vi.spyOn(Signer.prototype, 'unsign');
    const altered = [
      `${cookie.slice(0, -1)}${cookie.endsWith('A') ? 'B' : 'A'}`,
      cookie.replace('sid-1', 'sid-2'),
      new Signer('another-secret-of-at-least-32-characters').sign('sid-1'),
      'sid-1',
      `${cookie}.`,
    ];
    for (let round = 0; round < 2; round++) {
      for (const forged of altered)
        expect(signer.unsign(forged)).toEqual({ valid: false, renew: false, value: null });
    }
    expect(unsign).toHaveBeenCalledTimes(altered.length * 2);
  });
});

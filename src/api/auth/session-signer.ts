import { Signer, type UnsignResult } from '@fastify/cookie';

/** How many signed session cookies each way are remembered; past it, all are forgotten and signed again. */
const MOST_REMEMBERED = 10_000;

/**
 * The session cookie's signer (HMAC-SHA256, as @fastify/session's own), remembering what it signed and the
 * signatures it found valid: a signed-in browser sends the same cookie on every request, and its HMAC need
 * not be computed twice per request (check, then sign again for the reply) each time. Only valid cookies
 * are remembered, by their whole text, so a forged or altered one is always checked in full.
 */
export class RememberingSigner {
  private readonly signer: Signer;
  private readonly signed = new Map<string, string>();
  private readonly unsigned = new Map<string, string>();

  constructor(secret: string) {
    this.signer = new Signer(secret);
  }

  sign = (value: string): string => {
    const known = this.signed.get(value);
    if (known !== undefined) return known;
    const signed = this.signer.sign(value);
    remember(this.signed, value, signed);
    return signed;
  };

  unsign = (input: string): UnsignResult => {
    const value = this.unsigned.get(input);
    if (value !== undefined) return { valid: true, renew: false, value };
    const result = this.signer.unsign(input);
    if (result.valid && result.value !== null) remember(this.unsigned, input, result.value);
    return result;
  };
}

function remember(map: Map<string, string>, key: string, value: string) {
  if (map.size >= MOST_REMEMBERED) map.clear();
  map.set(key, value);
}

import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Binds the derived key to this one use of APP_SECRET, apart from session signing. */
const CONTEXT = 'prompt-flow-workbench/own-api-keys/aes-256-gcm/v1';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface OwnKeyCipher {
  encrypt(apiKey: string): string;
  /** Throws when the text was altered or sealed under another secret. */
  decrypt(sealed: string): string;
}

/**
 * Seals users' own API keys at rest with AES-256-GCM under a key derived from APP_SECRET, so a database
 * copy alone reveals no key. Stored form: `v1:` + base64url(iv | tag | ciphertext).
 */
export function createOwnKeyCipher(appSecret: string): OwnKeyCipher {
  const key = Buffer.from(hkdfSync('sha256', appSecret, '', CONTEXT, 32));
  return {
    encrypt(apiKey) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
    },
    decrypt(sealed) {
      const [version, body] = sealed.split(':');
      if (version !== VERSION || !body) throw new Error('Not a sealed API key');
      const bytes = Buffer.from(body, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error('Not a sealed API key');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

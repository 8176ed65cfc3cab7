import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_TOKEN_PREFIX } from '../../domain/api-token';

/** 32 random bytes, base64url: 43 characters after the prefix. */
const TOKEN_PATTERN = new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

/** A new token: the prefix and 256 random bits. */
export const newTokenSecret = (): string => API_TOKEN_PREFIX + randomBytes(32).toString('base64url');

/** Whether a text has a token's shape (checked before any lookup). */
export const looksLikeToken = (text: string): boolean => TOKEN_PATTERN.test(text);

/**
 * What is stored of a token: its SHA-256, hex. A token is 256 random bits, so a fast hash is enough: nobody
 * can guess one from its hash, and the lookup by hash leaves nothing to learn from timing.
 */
export const tokenHashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The stored hash and the presented token's, compared in constant time. */
export const sameHash = (stored: string, presented: string): boolean =>
  stored.length === presented.length && timingSafeEqual(Buffer.from(stored), Buffer.from(presented));

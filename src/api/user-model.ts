import type { Sql } from 'postgres';
import { DomainError } from '../domain/errors';
import type { Config } from './config';
import { createOwnKeyCipher } from './own-key-cipher';

/** The user's own key a call goes to: their newest active one. A fragment, the id of that key. */
const newestOwnKeyId = (sql: Sql, userId: string) => sql`
  SELECT id FROM user_api_keys WHERE user_id = ${userId} AND is_active ORDER BY created_at DESC, id DESC LIMIT 1`;

/**
 * The statement that picks the user's own key for a call, marks it used now and answers it sealed
 * (`encrypted_api_key`); no row when they have none. A fragment, to run alone or in a WITH.
 */
export const newestOwnKeyMarkedUsed = (sql: Sql, userId: string) => sql<{ encryptedApiKey: string }[]>`
  UPDATE user_api_keys SET last_used = now() WHERE id = (${newestOwnKeyId(sql, userId)})
  RETURNING encrypted_api_key`;

/** The same key, sealed, left as it is: a run marks it used only once it has started (markOwnKeyUsed). */
export const newestOwnKey = (sql: Sql, userId: string) => sql<{ encryptedApiKey: string }[]>`
  SELECT encrypted_api_key FROM user_api_keys WHERE id = (${newestOwnKeyId(sql, userId)})`;

/** Marks the key a run started with as used now: a run refused before it started leaves the key alone. */
export async function markOwnKeyUsed(sql: Sql, userId: string): Promise<void> {
  await sql`UPDATE user_api_keys SET last_used = now() WHERE id = (${newestOwnKeyId(sql, userId)})`;
}

/** An own key as stored, opened in memory. */
export function unsealOwnKey(config: Pick<Config, 'appSecret'>, sealed: string): string {
  try {
    return createOwnKeyCipher(config.appSecret).decrypt(sealed);
  } catch {
    // Sealed under another APP_SECRET: falling back to the server's key would hide the problem.
    throw new DomainError(
      'conflict',
      'Không thể đọc API key đã lưu (APP_SECRET đã thay đổi?). Vui lòng xóa và thêm lại key ở trang API Keys.',
    );
  }
}

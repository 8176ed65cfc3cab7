import type { Sql } from 'postgres';
import type { ApiKeyType } from '../../domain/api-key';
import { DomainError } from '../../domain/errors';
import type { Config } from '../runtime/config';
import { createOwnKeyCipher } from './own-key-cipher';

/** An own key as a call uses it: opened in memory. */
export interface OwnKey {
  id: string;
  keyType: ApiKeyType;
  /** An openai-compatible key's endpoint; null for the other types. */
  baseUrl: string | null;
  apiKey: string;
  /** Whether its provider took it; `unchecked`: ask at this use (UserModels). */
  checkStatus: KeyCheckStatus;
  keyName: string;
}

/** Whether the provider took an own key: see migrations/043_own_key_checks.sql. */
export type KeyCheckStatus = 'accepted' | 'unchecked' | 'rejected';

/** An own key as stored, still sealed. */
export interface SealedOwnKey {
  id: string;
  keyType: ApiKeyType;
  baseUrl: string | null;
  encryptedApiKey: string;
  checkStatus: KeyCheckStatus;
  keyName: string;
}

const SEALED_COLUMNS = 'id, key_type, base_url, encrypted_api_key, check_status, key_name';

/** Rows of the user's active keys of one of `keyTypes` (none when there are no types). A fragment. */
const activeKeysOf = (sql: Sql, userId: string, keyTypes: readonly ApiKeyType[]) =>
  keyTypes.length === 0
    ? sql`user_id = ${userId} AND false`
    : sql`user_id = ${userId} AND is_active AND key_type IN ${sql(keyTypes as ApiKeyType[])}`;

/**
 * The user's own key a call goes to: their newest active one of the types that answer its model
 * (keyTypesAnswering). A fragment, the id of that key.
 */
const newestOwnKeyId = (sql: Sql, userId: string, keyTypes: readonly ApiKeyType[]) => sql`
  SELECT id FROM user_api_keys WHERE ${activeKeysOf(sql, userId, keyTypes)}
  ORDER BY created_at DESC, id DESC LIMIT 1`;

/**
 * The statement that picks the user's own key for a call, marks it used now and answers it sealed; no row
 * when they have none of those types. A fragment, to run alone or in a WITH.
 */
export const newestOwnKeyMarkedUsed = (sql: Sql, userId: string, keyTypes: readonly ApiKeyType[]) =>
  sql<SealedOwnKey[]>`
    UPDATE user_api_keys SET last_used = now() WHERE id = (${newestOwnKeyId(sql, userId, keyTypes)})
    RETURNING ${sql.unsafe(SEALED_COLUMNS)}`;

/** The same key, sealed, left as it is: a run marks it used only once it has started (markOwnKeyUsed). */
export const newestOwnKey = (sql: Sql, userId: string, keyTypes: readonly ApiKeyType[]) => sql<
  SealedOwnKey[]
>`
  SELECT ${sql.unsafe(SEALED_COLUMNS)} FROM user_api_keys
  WHERE id = (${newestOwnKeyId(sql, userId, keyTypes)})`;

/** The user's newest active key of each type, sealed, the newest first. */
export const newestOwnKeyOfEachType = (sql: Sql, userId: string) => sql<SealedOwnKey[]>`
  SELECT ${sql.unsafe(SEALED_COLUMNS)} FROM (
    SELECT DISTINCT ON (key_type) *, created_at AS at FROM user_api_keys
    WHERE user_id = ${userId} AND is_active ORDER BY key_type, created_at DESC, id DESC
  ) newest ORDER BY at DESC, id DESC`;

/** Whether the user has an active own key of one of `keyTypes`, as an SQL expression. */
export const hasOwnKeyOf = (sql: Sql, userId: string, keyTypes: readonly ApiKeyType[]) => sql`
  EXISTS (SELECT 1 FROM user_api_keys WHERE ${activeKeysOf(sql, userId, keyTypes)})`;

/** Marks the key a run started with as used now: a run refused before it started leaves the key alone. */
export async function markOwnKeyUsed(sql: Sql, keyId: string): Promise<void> {
  await sql`UPDATE user_api_keys SET last_used = now() WHERE id = ${keyId}`;
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

/** A stored own key, opened. */
export function openOwnKey(config: Pick<Config, 'appSecret'>, key: SealedOwnKey): OwnKey {
  const { encryptedApiKey, ...rest } = key;
  return { ...rest, apiKey: unsealOwnKey(config, encryptedApiKey) };
}

import type { Sql } from 'postgres';
import {
  type ApiKeyType,
  MAX_OWN_KEYS_PER_USER,
  type NewApiKey,
  OWN_KEYS_USED_UP,
} from '../../domain/api-key';
import { notFound, ruleViolated } from '../../domain/errors';
import { mayInSql } from '../access';
import { readUsage, type Usage } from '../model-calls/usage-standing';
import { createOwnKeyCipher } from '../own-keys/own-key-cipher';
import type { KeyCheckStatus } from '../own-keys/own-keys';
import type { Config } from '../runtime/config';

/** What a key looks like to its owner: never the key itself, not even part of it. */
export interface ListedKey {
  id: string;
  keyName: string;
  keyType: ApiKeyType;
  /** An openai-compatible key's endpoint; null for the other types. */
  baseUrl: string | null;
  isActive: boolean;
  /** Whether its provider took it (see migrations/043_own_key_checks.sql). */
  checkStatus: KeyCheckStatus;
  createdAt: Date;
  lastUsed: Date | null;
}

const LISTED_COLUMNS = 'id, key_name, key_type, base_url, is_active, check_status, created_at, last_used';

/** The users' own API keys (sealed with APP_SECRET), each visible to its owner only, and their usage. */
export class ApiKeysRepository {
  private readonly cipher;

  constructor(
    private readonly sql: Sql,
    private readonly config: Pick<Config, 'appSecret' | 'freeStepAllowance'>,
  ) {
    this.cipher = createOwnKeyCipher(config.appSecret);
  }

  /** The user's keys, the newest first. */
  list(userId: string): Promise<ListedKey[]> {
    const { sql } = this;
    return sql<ListedKey[]>`
      SELECT ${sql.unsafe(LISTED_COLUMNS)} FROM user_api_keys
      WHERE ${mayInSql(this.sql, userId, 'read', 'personal', 'user_id')} ORDER BY created_at DESC, id DESC`;
  }

  /**
   * Seals and stores a key (its base URL as the caller allowed it); answers it as listed. At most
   * MAX_OWN_KEYS_PER_USER a user: the count and the insert hold the user's row, so keys added at once cannot
   * pass the limit together.
   */
  async add(userId: string, input: NewApiKey, checkStatus: KeyCheckStatus = 'accepted'): Promise<ListedKey> {
    const sealed = this.cipher.encrypt(input.apiKey);
    return this.sql.begin(async (sql) => {
      await sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`;
      const [held] = await sql<{ count: number }[]>`
        SELECT count(*)::int AS count FROM user_api_keys WHERE user_id = ${userId}`;
      if (held!.count >= MAX_OWN_KEYS_PER_USER) throw ruleViolated(OWN_KEYS_USED_UP);
      const [key] = await sql<ListedKey[]>`
        INSERT INTO user_api_keys (user_id, key_name, encrypted_api_key, key_type, base_url, check_status)
        VALUES (${userId}, ${input.keyName}, ${sealed}, ${input.keyType}, ${input.baseUrl}, ${checkStatus})
        RETURNING ${sql.unsafe(LISTED_COLUMNS)}`;
      return key!;
    });
  }

  /** Deletes the user's key; 404 when there is none of theirs with that id. */
  async delete(id: string, userId: string): Promise<void> {
    const deleted = await this.sql`
      DELETE FROM user_api_keys
      WHERE id = ${id} AND ${mayInSql(this.sql, userId, 'change', 'personal', 'user_id')} RETURNING id`;
    if (deleted.length === 0) throw notFound('Không tìm thấy API key');
  }

  /**
   * The user's free allowance left (-1: unlimited, with an own active key of `keyTypes`, those that answer the
   * default model) and the steps it has paid for.
   */
  usage(userId: string, keyTypes: readonly ApiKeyType[]): Promise<Usage> {
    return readUsage(this.sql, userId, this.config.freeStepAllowance, keyTypes);
  }
}

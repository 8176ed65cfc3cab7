import type { Sql } from 'postgres';
import { DomainError } from '../domain/errors';
import { allowanceUsedUpMessage, mayRunStep, remainingSteps } from '../domain/free-allowance';
import type { Config } from './config';
import { newestOwnKey, unsealOwnKey } from './user-model';

export interface Usage {
  /** -1: unlimited (an own active key). */
  remainingSteps: number;
  /** Successful runs made without an own key. */
  usedSteps: number;
}

/**
 * The user's successful runs made without an own key, as an expression: the one row PostgreSQL keeps as usage
 * rows are inserted (migration 013), however many runs there were.
 */
const defaultKeyRuns = (sql: Sql, userId: string) => sql`
  coalesce((SELECT default_key_runs::int FROM user_usage_counts WHERE user_id = ${userId}), 0)`;

/** What GET /api/user/usage answers. */
export async function readUsage(sql: Sql, userId: string, allowance: number): Promise<Usage> {
  const [row] = await sql<{ hasOwnKey: boolean; usedSteps: number }[]>`
    SELECT EXISTS (SELECT 1 FROM user_api_keys WHERE user_id = ${userId} AND is_active) AS has_own_key,
           ${defaultKeyRuns(sql, userId)} AS used_steps`;
  const standing = { hasOwnKey: row!.hasOwnKey, usedSteps: row!.usedSteps, allowance };
  return { remainingSteps: remainingSteps(standing), usedSteps: standing.usedSteps };
}

/**
 * The decrypted own key a run uses (the newest active one; markOwnKeyUsed once the run has started), or null when the run
 * goes to the default key or the offline model; past the free allowance the run is refused (429)
 * before anything is appended or any model is called. One round trip either way.
 */
export async function ownKeyForRun(
  { sql, config }: { sql: Sql; config: Pick<Config, 'appSecret' | 'freeStepAllowance'> },
  userId: string,
): Promise<string | null> {
  const [row] = await sql<{ encryptedApiKey: string | null; usedSteps: number }[]>`
    WITH own AS (${newestOwnKey(sql, userId)})
    SELECT (SELECT encrypted_api_key FROM own) AS encrypted_api_key,
           ${defaultKeyRuns(sql, userId)} AS used_steps`;
  const sealed = row?.encryptedApiKey ?? null;
  if (sealed !== null) return unsealOwnKey(config, sealed);
  const standing = { hasOwnKey: false, usedSteps: row?.usedSteps ?? 0, allowance: config.freeStepAllowance };
  if (!mayRunStep(standing))
    throw new DomainError('over_limit', allowanceUsedUpMessage(config.freeStepAllowance));
  return null;
}

import type { Sql } from 'postgres';
import type { ApiKeyType } from '../../domain/api-key';
import { DomainError } from '../../domain/errors';
import { allowanceUsedUpMessage, remainingSteps } from '../../domain/free-allowance';
import {
  hasOwnKeyOf,
  type KeyCheckStatus,
  newestOwnKey,
  type OwnKey,
  openOwnKey,
} from '../own-keys/own-keys';
import type { Config } from '../runtime/config';

export interface Usage {
  /** -1: unlimited (an own active key answers the default model). */
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

/**
 * What GET /api/user/usage answers. `keyTypes`: the own key types that answer the server's default model; with
 * one of them the user's steps are unlimited (a run on another provider's model still spends the allowance).
 */
export async function readUsage(
  sql: Sql,
  userId: string,
  allowance: number,
  keyTypes: readonly ApiKeyType[],
): Promise<Usage> {
  const [row] = await sql<{ hasOwnKey: boolean; usedSteps: number }[]>`
    SELECT ${hasOwnKeyOf(sql, userId, keyTypes)} AS has_own_key,
           ${defaultKeyRuns(sql, userId)} AS used_steps`;
  const standing = { hasOwnKey: row!.hasOwnKey, usedSteps: row!.usedSteps, allowance };
  return { remainingSteps: remainingSteps(standing), usedSteps: standing.usedSteps };
}

/** How long a free run stays reserved when its server dies mid-run: the model timeout and a minute. */
const reservationHoldMs = (config: Pick<Config, 'modelTimeoutMs'>) => config.modelTimeoutMs + 60_000;

/**
 * The opened own key a run uses (the newest active one of `keyTypes`, the types that answer the run's model:
 * keyTypesAnswering; markOwnKeyUsed once the run has started), or null
 * when the run goes to the default key or the offline model. Such a run holds one of the free allowance from
 * here (`runId` reserves it, migration 014) until its usage is recorded, which releases it; a run that ends any
 * other way must call releaseFreeRun. With none left the run is refused (429) before anything is appended or
 * any model is called: however many arrive at once, at most the allowance runs. One round trip either way.
 * No `keyTypes`: the run's model is not one an own key answers, so it spends the allowance.
 */
export async function ownKeyForRun(
  { sql, config }: { sql: Sql; config: Pick<Config, 'appSecret' | 'freeStepAllowance' | 'modelTimeoutMs'> },
  userId: string,
  runId: string,
  keyTypes: readonly ApiKeyType[],
): Promise<OwnKey | null> {
  type Row = {
    id: string | null;
    keyType: ApiKeyType;
    baseUrl: string | null;
    encryptedApiKey: string | null;
    checkStatus: KeyCheckStatus;
    keyName: string;
  };
  const [row] = await sql<(Row & { reserved: boolean | null })[]>`
    WITH own AS (${newestOwnKey(sql, userId, keyTypes)})
    SELECT (SELECT id FROM own) AS id, (SELECT key_type FROM own) AS key_type,
           (SELECT base_url FROM own) AS base_url, (SELECT encrypted_api_key FROM own) AS encrypted_api_key,
           (SELECT check_status FROM own) AS check_status, (SELECT key_name FROM own) AS key_name,
           CASE WHEN NOT EXISTS (SELECT 1 FROM own)
                THEN reserve_free_run(${userId}, ${runId}, ${config.freeStepAllowance},
                                      ${reservationHoldMs(config)})
           END AS reserved`;
  if (row?.id && row.encryptedApiKey !== null)
    return openOwnKey(config, {
      id: row.id,
      keyType: row.keyType,
      baseUrl: row.baseUrl,
      encryptedApiKey: row.encryptedApiKey,
      checkStatus: row.checkStatus,
      keyName: row.keyName,
    });
  if (!row?.reserved)
    throw new DomainError('over_limit', allowanceUsedUpMessage(config.freeStepAllowance), {
      code: 'free_allowance_used_up',
    });
  return null;
}

/** Gives back the free run `runId` reserved, when the run ended without its usage recorded (a no-op otherwise). */
export async function releaseFreeRun(sql: Sql, runId: string): Promise<void> {
  await sql`DELETE FROM free_run_reservations WHERE run_id = ${runId}`;
}

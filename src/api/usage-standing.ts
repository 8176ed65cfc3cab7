import type { Sql } from 'postgres';
import { DomainError } from '../domain/errors';
import { allowanceUsedUpMessage, remainingSteps } from '../domain/free-allowance';
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

/** How long a free run stays reserved when its server dies mid-run: the model timeout and a minute. */
const reservationHoldMs = (config: Pick<Config, 'modelTimeoutMs'>) => config.modelTimeoutMs + 60_000;

/**
 * The decrypted own key a run uses (the newest active one; markOwnKeyUsed once the run has started), or null
 * when the run goes to the default key or the offline model. Such a run holds one of the free allowance from
 * here (`runId` reserves it, migration 014) until its usage is recorded, which releases it; a run that ends any
 * other way must call releaseFreeRun. With none left the run is refused (429) before anything is appended or
 * any model is called: however many arrive at once, at most the allowance runs. One round trip either way.
 * `ownKeyApplies` false: the run's model is not one the user's own key answers, so it spends the allowance.
 */
export async function ownKeyForRun(
  { sql, config }: { sql: Sql; config: Pick<Config, 'appSecret' | 'freeStepAllowance' | 'modelTimeoutMs'> },
  userId: string,
  runId: string,
  ownKeyApplies = true,
): Promise<string | null> {
  const own = ownKeyApplies
    ? newestOwnKey(sql, userId)
    : sql`SELECT NULL::text AS encrypted_api_key WHERE false`;
  const [row] = await sql<{ encryptedApiKey: string | null; reserved: boolean | null }[]>`
    WITH own AS (${own})
    SELECT (SELECT encrypted_api_key FROM own) AS encrypted_api_key,
           CASE WHEN NOT EXISTS (SELECT 1 FROM own)
                THEN reserve_free_run(${userId}, ${runId}, ${config.freeStepAllowance},
                                      ${reservationHoldMs(config)})
           END AS reserved`;
  const sealed = row?.encryptedApiKey ?? null;
  if (sealed !== null) return unsealOwnKey(config, sealed);
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

import type { Sql } from 'postgres';
import { checkGeminiKey, type KeyCheck, type ResolvedProvider, resolveProvider } from '../../ai';
import type { NewApiKey } from '../../domain/api-key';
import type { Config } from '../config';
import { ownKeyForRun, releaseFreeRun } from '../usage-standing';
import { markOwnKeyUsed, newestOwnKeyMarkedUsed, unsealOwnKey } from '../user-model';

/** The model of a run, and with which key: the run holds one of the free allowance until its usage is recorded. */
export interface RunModel extends ResolvedProvider {
  /** Marks the run's own key used now, once the run has started (nothing when it has none). */
  markUsed(): Promise<void>;
}

/**
 * The one way a user's model is reached: their newest active own key, else the server's GEMINI_API_KEY, else
 * the offline model. A run (a flow step or a master mode ai row) spends the free allowance; any other call
 * (generating a workflow, suggestions, recommendations, improving a description) does not.
 */
export class UserModels {
  constructor(
    private readonly deps: {
      sql: Sql;
      config: Config;
      /** Which model answers; unset: own key -> GEMINI_API_KEY -> the offline model. */
      resolve?: typeof resolveProvider | undefined;
      /** How a new own key is checked with its provider; unset: a call to the Gemini API. */
      checkKey?: ((key: NewApiKey) => Promise<KeyCheck>) | undefined;
    },
  ) {}

  /** Asks the key's provider whether it takes the key, before it is saved. */
  checkKey(key: NewApiKey): Promise<KeyCheck> {
    const { config, checkKey } = this.deps;
    if (checkKey) return checkKey(key);
    return checkGeminiKey({ apiKey: key.apiKey, baseUrl: config.geminiBaseUrl });
  }

  /**
   * The model for a call that is not a run, its own key (if any) marked used now: the free step allowance
   * neither counts nor stops it.
   */
  async forUser(userId: string): Promise<ResolvedProvider> {
    const [row] = await newestOwnKeyMarkedUsed(this.deps.sql, userId);
    return this.withKey(row ? unsealOwnKey(this.deps.config, row.encryptedApiKey) : null);
  }

  /**
   * The model for the run `runId`: past the free allowance it is refused (429) before anything is recorded or
   * called. A run that ends without its usage recorded must `release` it. `sql`: the connection to ask on.
   */
  async forRun(userId: string, runId: string, sql: Sql = this.deps.sql): Promise<RunModel> {
    const ownKey = await ownKeyForRun({ sql, config: this.deps.config }, userId, runId);
    return {
      ...this.withKey(ownKey),
      markUsed: async () => {
        if (ownKey !== null) await markOwnKeyUsed(this.deps.sql, userId);
      },
    };
  }

  /** Gives back the free run `runId` held, when the run ended without its usage recorded (a no-op otherwise). */
  release(runId: string): Promise<void> {
    return releaseFreeRun(this.deps.sql, runId);
  }

  /** The model for a call made with the user's own key (null: the server's key, else the offline model). */
  private withKey(ownKey: string | null): ResolvedProvider {
    const { config } = this.deps;
    return (this.deps.resolve ?? resolveProvider)({
      ownKey,
      defaultKey: config.geminiApiKey,
      model: config.geminiModel,
      baseUrl: config.geminiBaseUrl,
      timeoutMs: config.modelTimeoutMs,
    });
  }
}

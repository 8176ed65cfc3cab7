import type { Sql } from 'postgres';
import { checkGeminiKey, type KeyCheck, type ResolvedProvider, type resolveProvider } from '../../ai';
import { probedForSchema } from '../../ai/schema-probe';
import type { NewApiKey } from '../../domain/api-key';
import { answeringModelId, parseModelId } from '../../domain/model-choice';
import type { Config } from '../config';
import { ownKeyForRun, releaseFreeRun } from '../usage-standing';
import { markOwnKeyUsed, newestOwnKeyMarkedUsed, unsealOwnKey } from '../user-model';
import { ModelCatalog } from './model-catalog';
import { SchemaProbes } from './schema-probes';

/** The model of a run, and with which key: the run holds one of the free allowance until its usage is recorded. */
export interface RunModel extends ResolvedProvider {
  /** The `provider:name` id of the model that answers the run (see answeringModelId). */
  modelId: string;
  /** Marks the run's own key used now, once the run has started (nothing when it has none). */
  markUsed(): Promise<void>;
}

/**
 * The one way a user's model is reached. A run answers on its step's model when the server offers it, else on
 * the default (see ModelCatalog); a Gemini model (and the offline default) on the user's newest active own key
 * when they have one. A run (a flow step or a master mode ai row) spends the free allowance unless the user's
 * own key answers it; any other call (generating a workflow, suggestions, recommendations, improving a
 * description) does not, and goes to the default model.
 */
export class UserModels {
  readonly catalog: ModelCatalog;
  /** What each model does with a JSON schema, probed once per model. */
  readonly probes: SchemaProbes;

  constructor(
    private readonly deps: {
      sql: Sql;
      config: Config;
      /** Which model answers; unset: own key -> GEMINI_API_KEY -> the offline model. */
      resolve?: typeof resolveProvider | undefined;
      /** How a new own key is checked with its provider; unset: a call to the Gemini API. */
      checkKey?: ((key: NewApiKey) => Promise<KeyCheck>) | undefined;
    },
  ) {
    this.probes = new SchemaProbes(deps.sql);
    this.catalog = new ModelCatalog(this.probes, deps.config);
  }

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
    const ownKey = row ? unsealOwnKey(this.deps.config, row.encryptedApiKey) : null;
    return this.withKey(ownKey, await this.catalog.defaultId());
  }

  /**
   * The model for the run `runId`: past the free allowance it is refused (429) before anything is recorded or
   * called. A run that ends without its usage recorded must `release` it. `sql`: the connection to ask on.
   */
  async forRun(
    userId: string,
    runId: string,
    sql: Sql = this.deps.sql,
    stepModel: string | null = null,
  ): Promise<RunModel> {
    // A Gemini model a step names may be answered by the user's own key: offered as if they had one.
    const modelId = await this.catalog.choose(stepModel, stepModel?.startsWith('gemini:') ?? false);
    const { provider } = parseModelId(modelId);
    const ownKeyApplies = provider === 'gemini' || provider === 'offline';
    const ownKey = await ownKeyForRun({ sql, config: this.deps.config }, userId, runId, ownKeyApplies);
    const resolved = this.withKey(ownKey, modelId);
    return {
      ...resolved,
      modelId: answeringModelId(modelId, resolved.provider),
      markUsed: async () => {
        if (ownKey !== null) await markOwnKeyUsed(this.deps.sql, userId);
      },
    };
  }

  /** Gives back the free run `runId` held, when the run ended without its usage recorded (a no-op otherwise). */
  release(runId: string): Promise<void> {
    return releaseFreeRun(this.deps.sql, runId);
  }

  /**
   * The provider of `modelId`, with the user's own key where it answers it; a structured request's schema
   * goes to it the way its probe found it takes one.
   */
  private withKey(ownKey: string | null, modelId: string): ResolvedProvider {
    const resolved = this.resolved(ownKey, modelId);
    return { ...resolved, provider: probedForSchema(resolved.provider, this.probes) };
  }

  private resolved(ownKey: string | null, modelId: string): ResolvedProvider {
    const { config, resolve } = this.deps;
    // A test's (or an embedder's) own choice of model, as it was given before models were per step.
    if (resolve)
      return resolve({
        ownKey,
        defaultKey: config.geminiApiKey,
        model: config.geminiModel,
        baseUrl: config.geminiBaseUrl,
        timeoutMs: config.modelTimeoutMs,
      });
    return this.catalog.providerFor(modelId, ownKey);
  }
}

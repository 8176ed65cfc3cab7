import type { Sql } from 'postgres';
import {
  checkAnthropicKey,
  checkGeminiKey,
  checkOpenAIKey,
  type KeyCheck,
  type ResolvedProvider,
  type resolveProvider,
} from '../../ai';
import { probedForSchema } from '../../ai/schema-probe';
import {
  API_KEY_TYPE_LABELS,
  type ApiKeyType,
  keyTypesAnswering,
  type NewApiKey,
  ownKeyRejected,
  ownKeyStillUnchecked,
} from '../../domain/api-key';
import { DomainError } from '../../domain/errors';
import { answeringModelId, modelIdSchema, parseModelId } from '../../domain/model-choice';
import {
  markOwnKeyUsed,
  newestOwnKeyMarkedUsed,
  newestOwnKeyOfEachType,
  type OwnKey,
  openOwnKey,
  unsealOwnKey,
} from '../own-keys/own-keys';
import type { Config } from '../runtime/config';
import { ModelCatalog, type OwnKeys } from './model-catalog';
import { observedProvider } from './observed-answer';
import { SchemaProbes } from './schema-probes';
import { ownKeyForRun, releaseFreeRun } from './usage-standing';

/** The model of a run, and with which key: the run holds one of the free allowance until its usage is recorded. */
export interface RunModel extends ResolvedProvider {
  /** The `provider:name` id of the model that answers the run (see answeringModelId). */
  modelId: string;
  /** Marks the run's own key used now, once the run has started (nothing when it has none). */
  markUsed(): Promise<void>;
}

/** The providers an own key answers, as OwnKeys holds them. */
const OWN_KEY_PROVIDERS = ['gemini', 'openai', 'anthropic'] as const;

const typesOf = (modelId: string) => keyTypesAnswering(parseModelId(modelId).provider);

const sameTypes = (a: readonly ApiKeyType[], b: readonly ApiKeyType[]) =>
  a.length === b.length && a.every((type, i) => type === b[i]);

/** The one key of OwnKeys a run's own key is, under the provider whose models it answers. */
function ownKeysOf(modelId: string, key: OwnKey | null): OwnKeys {
  const { provider } = parseModelId(modelId);
  if (key === null || !(OWN_KEY_PROVIDERS as readonly string[]).includes(provider)) return {};
  return { [provider]: key };
}

/**
 * The one way a user's model is reached. A run answers on its step's model when it is offered to the user,
 * else on the default (see ModelCatalog); each model on the user's newest active own key of the types that
 * answer it (keyTypesAnswering: Gemini's models and the offline default on a Gemini key, `openai:` models on an
 * `openai` or `openai-compatible` key, Anthropic's on an `anthropic` key) when they have one. A run (a flow step
 * or a master mode ai row) spends the free allowance unless an own key answers it; any other call (generating a
 * workflow, suggestions, recommendations, improving a description) does not, and goes to the default model.
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
      /** How a new own key is checked with its provider; unset: a call to the provider's API. */
      checkKey?: ((key: NewApiKey) => Promise<KeyCheck>) | undefined;
    },
  ) {
    this.probes = new SchemaProbes(deps.sql);
    this.catalog = new ModelCatalog(this.probes, deps.config);
  }

  /**
   * Asks the key's provider whether it takes the key, before it is saved: where the server sends that
   * provider's models, or an openai-compatible key's own endpoint (`baseUrl`, allowed by MODEL_ENDPOINT_HOSTS
   * before this is asked).
   */
  checkKey(key: NewApiKey): Promise<KeyCheck> {
    const { config, checkKey } = this.deps;
    if (checkKey) return checkKey(key);
    const { apiKey } = key;
    switch (key.keyType) {
      case 'gemini':
        return checkGeminiKey({ apiKey, baseUrl: config.geminiBaseUrl });
      case 'openai':
        return checkOpenAIKey({ apiKey, baseUrl: config.openaiBaseUrl });
      case 'openai-compatible':
        return checkOpenAIKey({ apiKey, baseUrl: key.baseUrl ?? undefined, noRedirects: true });
      case 'anthropic':
        return checkAnthropicKey({ apiKey, baseUrl: config.anthropicBaseUrl });
    }
  }

  /**
   * The user's own keys as the catalog needs them to say what is offered: the newest active key answering
   * each provider; only an openai-compatible one is opened (its endpoint's models are listed with it).
   */
  async ownKeys(userId: string): Promise<OwnKeys> {
    const newest = await newestOwnKeyOfEachType(this.deps.sql, userId);
    const own: OwnKeys = {};
    for (const provider of OWN_KEY_PROVIDERS) {
      const types = keyTypesAnswering(provider);
      const key = newest.find((candidate) => types.includes(candidate.keyType));
      if (!key) continue;
      const { encryptedApiKey, ...rest } = key;
      let apiKey: string | null = null;
      if (key.keyType === 'openai-compatible') {
        try {
          apiKey = unsealOwnKey(this.deps.config, encryptedApiKey);
        } catch {
          // Unreadable (another APP_SECRET): a run says so; the list just shows none of its models.
        }
      }
      own[provider] = { ...rest, apiKey };
    }
    return own;
  }

  /** The own key types that answer the server's default model (with one of them a user's steps are unlimited). */
  async defaultKeyTypes(): Promise<readonly ApiKeyType[]> {
    return typesOf(await this.catalog.defaultId());
  }

  /**
   * The model for a call that is not a run, its own key (if any) marked used now: the free step allowance
   * neither counts nor stops it.
   */
  async forUser(userId: string): Promise<ResolvedProvider> {
    const modelId = await this.catalog.defaultId();
    const [row] = await newestOwnKeyMarkedUsed(this.deps.sql, userId, typesOf(modelId));
    const resolved = this.withKey(
      await this.checked(row ? openOwnKey(this.deps.config, row) : null),
      modelId,
    );
    const answering = answeringModelId(modelId, resolved.provider);
    return { ...resolved, provider: observedProvider(resolved.provider, answering) };
  }

  /**
   * An own key saved while its provider could not be asked about it (`unchecked`) is asked about at its first
   * use, before anything is recorded or called: taken, it is used from now on; refused, it is no longer used
   * (`rejected`, inactive) and the call is a 400 `own_key_rejected` that says so; still not to be asked, a 409
   * `own_key_unchecked`, retryable. Never the model call's failure (502) a refused key would give.
   */
  private async checked(own: OwnKey | null): Promise<OwnKey | null> {
    if (own === null || own.checkStatus !== 'unchecked') return own;
    const { sql } = this.deps;
    const check = await this.checkKey({
      keyName: own.keyName,
      apiKey: own.apiKey,
      keyType: own.keyType,
      baseUrl: own.baseUrl,
    });
    const provider = API_KEY_TYPE_LABELS[own.keyType];
    switch (check.outcome) {
      case 'accepted':
        await sql`UPDATE user_api_keys SET check_status = 'accepted' WHERE id = ${own.id}`;
        return { ...own, checkStatus: 'accepted' };
      case 'rejected':
        await sql`
          UPDATE user_api_keys SET check_status = 'rejected', is_active = false WHERE id = ${own.id}`;
        throw new DomainError('rule_violated', ownKeyRejected(provider, own.keyName, check.reason), {
          code: 'own_key_rejected',
        });
      case 'unchecked':
        throw new DomainError('conflict', ownKeyStillUnchecked(provider, own.keyName, check.reason), {
          code: 'own_key_unchecked',
          retryable: true,
        });
    }
  }

  /**
   * The model for the run `runId`: past the free allowance it is refused (429) before anything is recorded or
   * called. A run that ends without its usage recorded must `release` it. `sql`: the connection to ask on.
   * One round trip for the key and the allowance together; a step naming a model not offered to the user
   * (not by the server, nor by the own key found) runs on the default, which may cost one more.
   */
  async forRun(
    userId: string,
    runId: string,
    sql: Sql = this.deps.sql,
    stepModel: string | null = null,
  ): Promise<RunModel> {
    const deps = { sql, config: this.deps.config };
    const named = stepModel && modelIdSchema.safeParse(stepModel).success ? stepModel : null;
    const defaultId = await this.catalog.defaultId();
    const defaultTypes = typesOf(defaultId);
    const onDefault = async () =>
      this.runModel(await this.checked(await ownKeyForRun(deps, userId, runId, defaultTypes)), defaultId);
    if (named === null || named === defaultId) return onDefault();
    const namedTypes = typesOf(named);
    let own: OwnKey | null;
    try {
      own = await this.checked(await ownKeyForRun(deps, userId, runId, namedTypes));
    } catch (error) {
      const usedUp = error instanceof DomainError && error.code === 'free_allowance_used_up';
      if (!usedUp || (await this.catalog.ids()).includes(named)) throw error;
      // Past the allowance, and not offered without an own key: it runs on the default, which one may answer.
      return onDefault();
    }
    if ((await this.catalog.ids(ownKeysOf(named, own))).includes(named)) return this.runModel(own, named);
    // Not offered: the default, on the key (or the free run) in hand when the same key types answer it.
    if (sameTypes(namedTypes, defaultTypes)) return this.runModel(own, defaultId);
    if (own === null) await releaseFreeRun(sql, runId);
    return onDefault();
  }

  /** Gives back the free run `runId` held, when the run ended without its usage recorded (a no-op otherwise). */
  release(runId: string): Promise<void> {
    return releaseFreeRun(this.deps.sql, runId);
  }

  private runModel(own: OwnKey | null, modelId: string): RunModel {
    const resolved = this.withKey(own, modelId);
    return {
      ...resolved,
      modelId: answeringModelId(modelId, resolved.provider),
      markUsed: async () => {
        if (own !== null) await markOwnKeyUsed(this.deps.sql, own.id);
      },
    };
  }

  /**
   * The provider of `modelId`, with the user's own key where it answers it; a structured request's schema
   * goes to it the way its probe found it takes one.
   */
  private withKey(ownKey: OwnKey | null, modelId: string): ResolvedProvider {
    const resolved = this.resolved(ownKey, modelId);
    return { ...resolved, provider: probedForSchema(resolved.provider, this.probes) };
  }

  private resolved(ownKey: OwnKey | null, modelId: string): ResolvedProvider {
    const { config, resolve } = this.deps;
    // A test's (or an embedder's) own choice of model, as it was given before models were per step.
    if (resolve)
      return resolve({
        ownKey: ownKey?.apiKey ?? null,
        defaultKey: config.geminiApiKey,
        model: config.geminiModel,
        baseUrl: config.geminiBaseUrl,
        timeoutMs: config.modelTimeoutMs,
      });
    return this.catalog.providerFor(modelId, ownKey);
  }
}

import OpenAI from 'openai';
import {
  createAnthropicProvider,
  createGeminiProvider,
  createOfflineProvider,
  createOpenAIProvider,
  type ModelProvider,
  type ResolvedProvider,
} from '../../ai';
import { modelIdSchema, parseModelId } from '../../domain/model-choice';
import type { Config } from '../config';
import type { SchemaProbes } from './schema-probes';

/** The providers a model id may name. `ollama` is an OpenAI-compatible endpoint of its own (OLLAMA_BASE_URL). */
export const PROVIDERS = ['gemini', 'openai', 'anthropic', 'ollama', 'offline'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** The model that answers when nothing else is configured: it needs no key and no network. */
export const OFFLINE_MODEL = 'offline:offline';

/** A model users may pick, as `GET /api/models` lists it. */
export interface CatalogModel {
  id: string;
  provider: ProviderName;
  name: string;
  capabilities: {
    streaming: boolean;
    /** Whether the provider is sent the answer's JSON schema (otherwise it is asked for it in the prompt). */
    /**
     * Whether the model is held to a structured answer's JSON schema by its API: found by a probe for an
     * OpenAI-compatible endpoint (null until it has been probed), false where the schema is an instruction
     * (Anthropic). Either way the answer is checked, and asked for again when it does not fit.
     */
    structuredOutput: boolean | null;
  };
  /** `own key`: answered with the user's own key; `server`: with the server's configuration. */
  source: 'server' | 'own key';
}

/** How long an endpoint's own model list is kept, and how long asking for it may take. */
const LISTED_FOR_MS = 60_000;
const LIST_TIMEOUT_MS = 3_000;

const isProvider = (name: string): name is ProviderName => (PROVIDERS as readonly string[]).includes(name);

/**
 * Which models the server offers and which provider answers each: the configured `MODELS`, what an
 * OpenAI-compatible endpoint lists at `/models`, Gemini's model when a key is there, and the offline model.
 * A step names its model; one the server does not offer runs on the default.
 */
export class ModelCatalog {
  private listed: { until: number; ids: Promise<string[]> } | null = null;

  constructor(
    /** What probes found of each model's schema parameter. */
    private readonly probes: Pick<SchemaProbes, 'knownFinding'>,
    private readonly config: Pick<
      Config,
      | 'geminiApiKey'
      | 'geminiModel'
      | 'geminiBaseUrl'
      | 'openaiApiKey'
      | 'openaiBaseUrl'
      | 'anthropicApiKey'
      | 'anthropicBaseUrl'
      | 'ollamaBaseUrl'
      | 'models'
      | 'defaultModel'
      | 'modelTimeoutMs'
    >,
  ) {}

  /** Whether the server can reach the provider at all: a key, or an address that needs none. */
  configured(provider: ProviderName, ownGeminiKey = false): boolean {
    const { config } = this;
    switch (provider) {
      case 'gemini':
        return ownGeminiKey || Boolean(config.geminiApiKey);
      case 'openai':
        return Boolean(config.openaiApiKey || config.openaiBaseUrl);
      case 'anthropic':
        return Boolean(config.anthropicApiKey);
      case 'ollama':
        return Boolean(config.ollamaBaseUrl);
      case 'offline':
        return true;
    }
  }

  /** The ids users may pick, in the order they are offered: the default first. */
  async ids(ownGeminiKey = false): Promise<string[]> {
    const fromConfig = this.config.models.filter((id) => {
      const { provider } = parseModelId(id);
      return isProvider(provider) && this.configured(provider, ownGeminiKey);
    });
    const gemini = this.configured('gemini', ownGeminiKey) ? [`gemini:${this.config.geminiModel}`] : [];
    const all = [
      await this.defaultId(),
      ...fromConfig,
      ...(await this.endpointIds()),
      ...gemini,
      OFFLINE_MODEL,
    ];
    return [...new Set(all)];
  }

  /** The models users may pick, with what each can do and whose key answers it. */
  async list(ownGeminiKey = false): Promise<CatalogModel[]> {
    const ids = await this.ids(ownGeminiKey);
    return Promise.all(
      ids.map(async (id) => {
        const { provider, name } = parseModelId(id) as { provider: ProviderName; name: string };
        return {
          id,
          provider,
          name,
          capabilities: { streaming: true, structuredOutput: await this.schemaEnforced(id) },
          source: provider === 'gemini' && ownGeminiKey ? 'own key' : 'server',
        };
      }),
    );
  }

  /** Whether the model's API holds an answer to its schema (null: not probed yet). */
  private async schemaEnforced(id: string): Promise<boolean | null> {
    const { provider } = this.providerFor(id, null);
    if (provider.kind === 'anthropic') return false;
    if (!provider.schemaProbe) return true;
    const finding = await this.probes.knownFinding(provider);
    return finding === null ? null : finding === 'enforced';
  }

  /**
   * The model of a step that names none: DEFAULT_MODEL, else the first of MODELS, else the first model an
   * OpenAI-compatible endpoint lists, else Gemini's when the server has its key, else the offline model.
   */
  async defaultId(): Promise<string> {
    const { config } = this;
    if (config.defaultModel) return config.defaultModel;
    const [first] = config.models;
    if (first) return first;
    const [listed] = await this.endpointIds();
    if (listed) return listed;
    if (config.geminiApiKey) return `gemini:${config.geminiModel}`;
    return OFFLINE_MODEL;
  }

  /** The model a step runs on: the one it names when the server offers it, else the default. */
  async choose(stepModel: string | null | undefined, ownGeminiKey = false): Promise<string> {
    if (stepModel && modelIdSchema.safeParse(stepModel).success) {
      if ((await this.ids(ownGeminiKey)).includes(stepModel)) return stepModel;
    }
    return this.defaultId();
  }

  /**
   * The provider that answers `id`, and whose key it uses. The user's own key is a Gemini key: it answers
   * Gemini's models, and the offline default too (as it always has: a user with a key gets Gemini).
   */
  providerFor(id: string, ownGeminiKey: string | null): ResolvedProvider {
    const { config } = this;
    const { provider, name } = parseModelId(id);
    const timeoutMs = config.modelTimeoutMs;
    const own = ownGeminiKey?.trim() || null;
    const gemini = (apiKey: string, model: string): ModelProvider =>
      createGeminiProvider({
        apiKey,
        model,
        timeoutMs,
        ...(config.geminiBaseUrl ? { baseUrl: config.geminiBaseUrl } : {}),
      });
    switch (provider) {
      case 'gemini':
        if (own) return { provider: gemini(own, name), keySource: 'own' };
        if (config.geminiApiKey) return { provider: gemini(config.geminiApiKey, name), keySource: 'default' };
        break;
      case 'openai':
        if (this.configured('openai'))
          return {
            provider: createOpenAIProvider({
              // A local endpoint takes no key; the SDK wants one all the same.
              apiKey: config.openaiApiKey ?? 'none',
              model: name,
              timeoutMs,
              ...(config.openaiBaseUrl ? { baseUrl: config.openaiBaseUrl } : {}),
            }),
            keySource: 'default',
          };
        break;
      case 'anthropic':
        if (config.anthropicApiKey)
          return {
            provider: createAnthropicProvider({
              apiKey: config.anthropicApiKey,
              model: name,
              timeoutMs,
              ...(config.anthropicBaseUrl ? { baseUrl: config.anthropicBaseUrl } : {}),
            }),
            keySource: 'default',
          };
        break;
      case 'ollama':
        if (config.ollamaBaseUrl)
          return {
            provider: createOpenAIProvider({
              apiKey: 'ollama',
              model: name,
              timeoutMs,
              baseUrl: config.ollamaBaseUrl,
            }),
            keySource: 'default',
          };
        break;
    }
    if (own) return { provider: gemini(own, config.geminiModel), keySource: 'own' };
    return { provider: createOfflineProvider(), keySource: 'offline' };
  }

  /**
   * What the OpenAI-compatible endpoint lists at `/models` (OPENAI_BASE_URL, or OpenAI's with a key), asked
   * once a minute at most, through the SDK; an endpoint that does not answer lists nothing.
   */
  private endpointIds(): Promise<string[]> {
    const { config } = this;
    if (!config.openaiBaseUrl && !config.openaiApiKey) return Promise.resolve([]);
    const now = Date.now();
    if (this.listed && this.listed.until > now) return this.listed.ids;
    const client = new OpenAI({
      apiKey: config.openaiApiKey ?? 'none',
      maxRetries: 0,
      timeout: LIST_TIMEOUT_MS,
      ...(config.openaiBaseUrl ? { baseURL: config.openaiBaseUrl } : {}),
    });
    const ids = (async () => {
      const names: string[] = [];
      for await (const model of client.models.list()) {
        if (names.length >= 200) break;
        const id = `openai:${model.id}`;
        if (modelIdSchema.safeParse(id).success) names.push(id);
      }
      return names;
    })().catch(() => {
      // Asked again soon rather than in a minute.
      if (this.listed) this.listed.until = Date.now() + 5_000;
      return [];
    });
    this.listed = { until: now + LISTED_FOR_MS, ids };
    return ids;
  }
}

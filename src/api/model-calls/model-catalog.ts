import OpenAI from 'openai';
import {
  createAnthropicProvider,
  createGeminiProvider,
  createOfflineProvider,
  createOpenAIProvider,
  type ModelProvider,
  type ResolvedProvider,
} from '../../ai';
import type { SchemaFinding } from '../../ai/schema-probe';
import { allowedEndpointUrl } from '../../domain/api-key';
import { modelIdSchema, parseModelId } from '../../domain/model-choice';
import type { OwnKey } from '../own-keys/own-keys';
import type { Config } from '../runtime/config';
import type { SchemaProbes } from './schema-probes';

/**
 * Whether the model's API holds an answer to its schema, by what its probe found (null: not probed yet);
 * Anthropic is asked by an instruction, and a provider that is never probed holds to it.
 */
function schemaEnforced(provider: ModelProvider, finding: SchemaFinding | null): boolean | null {
  if (provider.kind === 'anthropic') return false;
  if (!provider.schemaProbe) return true;
  return finding === null ? null : finding === 'enforced';
}

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
 * The user's own keys by the provider whose models each answers (the newest active key of the types that
 * answer it, keyTypesAnswering): `gemini`, `openai`, `anthropic`. An openai-compatible key's `apiKey` is there
 * to list its endpoint's models; the others' may be left out (null), since listing needs none.
 */
export type OwnKeys = Partial<
  Record<'gemini' | 'openai' | 'anthropic', Omit<OwnKey, 'apiKey'> & { apiKey: string | null }>
>;

/** An OpenAI-compatible endpoint's models, as `openai:` ids, and until when they are kept. */
interface Listed {
  until: number;
  ids: Promise<string[]>;
}

/** How many own endpoints' lists are kept at once (past it the oldest are asked again). */
const OWN_LISTS_KEPT = 1_000;

/**
 * Which models the server offers and which provider answers each: the configured `MODELS`, what an
 * OpenAI-compatible endpoint lists at `/models`, Gemini's model when a key is there, and the offline model.
 * A step names its model; one the server does not offer runs on the default.
 */
export class ModelCatalog {
  private listed: Listed | null = null;
  /** Own openai-compatible endpoints' lists, by key id. */
  private readonly ownListed = new Map<string, Listed>();

  constructor(
    /** What probes found of each model's schema parameter. */
    private readonly probes: Pick<SchemaProbes, 'knownFindings'>,
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
      | 'modelEndpointHosts'
    >,
  ) {}

  /** Whether the provider can be reached at all: a key (the server's or the user's own), or an address that needs none. */
  configured(provider: ProviderName, own: OwnKeys = {}): boolean {
    const { config } = this;
    switch (provider) {
      case 'gemini':
        return Boolean(own.gemini || config.geminiApiKey);
      case 'openai':
        return Boolean(own.openai || config.openaiApiKey || config.openaiBaseUrl);
      case 'anthropic':
        return Boolean(own.anthropic || config.anthropicApiKey);
      case 'ollama':
        return Boolean(config.ollamaBaseUrl);
      case 'offline':
        return true;
    }
  }

  /**
   * The ids a user with the own keys `own` may pick, in the order they are offered: the default first. An
   * openai-compatible own key takes the place of the server's OpenAI-compatible endpoint: its own `/models`
   * are offered instead of the server endpoint's.
   */
  async ids(own: OwnKeys = {}): Promise<string[]> {
    const fromConfig = this.config.models.filter((id) => {
      const { provider } = parseModelId(id);
      return isProvider(provider) && this.configured(provider, own);
    });
    const gemini = this.configured('gemini', own) ? [`gemini:${this.config.geminiModel}`] : [];
    const ownEndpoint = own.openai?.keyType === 'openai-compatible' ? own.openai : null;
    const all = [
      await this.defaultId(),
      ...fromConfig,
      ...(ownEndpoint ? await this.ownEndpointIds(ownEndpoint) : await this.endpointIds()),
      ...gemini,
      OFFLINE_MODEL,
    ];
    return [...new Set(all)];
  }

  /** The models a user with the own keys `own` may pick, with what each can do and whose key answers it. */
  async list(own: OwnKeys = {}): Promise<CatalogModel[]> {
    const models = (await this.ids(own)).map((id) => {
      const { provider, name } = parseModelId(id) as { provider: ProviderName; name: string };
      const ownKey = provider !== 'offline' && provider !== 'ollama' ? (own[provider] ?? null) : null;
      // Only where the model is answered counts here, not with which key (a listed key is not opened).
      const answering = this.providerFor(id, ownKey && { ...ownKey, apiKey: ownKey.apiKey ?? 'listed' });
      return { id, provider, name, ownKey, answering: answering.provider };
    });
    const findings = await this.probes.knownFindings(models.map((model) => model.answering));
    return models.map(({ id, provider, name, ownKey, answering }, i) => ({
      id,
      provider,
      name,
      capabilities: { streaming: true, structuredOutput: schemaEnforced(answering, findings[i] ?? null) },
      source: ownKey ? 'own key' : 'server',
    }));
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

  /** The model a step runs on: the one it names when it is offered to the user, else the default. */
  async choose(stepModel: string | null | undefined, own: OwnKeys = {}): Promise<string> {
    if (stepModel && modelIdSchema.safeParse(stepModel).success) {
      if ((await this.ids(own)).includes(stepModel)) return stepModel;
    }
    return this.defaultId();
  }

  /**
   * The provider that answers `id`, and whose key it uses: `ownKey`, the user's own key of the types that
   * answer it (keyTypesAnswering), else the server's. A Gemini own key answers Gemini's models, and the
   * offline default too (as it always has: a user with a key gets Gemini); an `openai` own key goes where the
   * server sends `openai:` models (OPENAI_BASE_URL, else OpenAI's), an `openai-compatible` one to its own
   * endpoint (while MODEL_ENDPOINT_HOSTS still allows it), an `anthropic` one where the server sends
   * Anthropic's.
   */
  providerFor(id: string, ownKey: OwnKey | null): ResolvedProvider {
    const { config } = this;
    const { provider, name } = parseModelId(id);
    const timeoutMs = config.modelTimeoutMs;
    const ownApiKey = ownKey?.apiKey.trim() || null;
    const own = ownKey?.keyType === 'gemini' ? ownApiKey : null;
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
        if (ownApiKey && (ownKey?.keyType === 'openai' || ownKey?.keyType === 'openai-compatible'))
          return {
            provider: createOpenAIProvider({
              apiKey: ownApiKey,
              model: name,
              timeoutMs,
              ...this.ownOpenAIAddress(ownKey),
            }),
            keySource: 'own',
          };
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
      case 'anthropic': {
        const ownAnthropic = ownKey?.keyType === 'anthropic' ? ownApiKey : null;
        const apiKey = ownAnthropic ?? config.anthropicApiKey;
        if (apiKey)
          return {
            provider: createAnthropicProvider({
              apiKey,
              model: name,
              timeoutMs,
              ...(config.anthropicBaseUrl ? { baseUrl: config.anthropicBaseUrl } : {}),
            }),
            keySource: ownAnthropic ? 'own' : 'default',
          };
        break;
      }
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
   * Where an own `openai` or `openai-compatible` key's calls go: the server's address for `openai:` models, or
   * the key's own endpoint, checked against MODEL_ENDPOINT_HOSTS again (400 once the operator took it off).
   */
  private ownOpenAIAddress(ownKey: Pick<OwnKey, 'keyType' | 'baseUrl'>) {
    const { config } = this;
    if (ownKey.keyType === 'openai-compatible' && ownKey.baseUrl !== null)
      return { baseUrl: allowedEndpointUrl(ownKey.baseUrl, config.modelEndpointHosts), noRedirects: true };
    return config.openaiBaseUrl ? { baseUrl: config.openaiBaseUrl } : {};
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
    const listed: Listed = {
      until: now + LISTED_FOR_MS,
      ids: this.listModels(
        new OpenAI({
          apiKey: config.openaiApiKey ?? 'none',
          maxRetries: 0,
          timeout: LIST_TIMEOUT_MS,
          ...(config.openaiBaseUrl ? { baseURL: config.openaiBaseUrl } : {}),
        }),
        () => listed,
      ),
    };
    this.listed = listed;
    return listed.ids;
  }

  /**
   * What a user's own openai-compatible endpoint lists at `/models`, with their key, by the same rules and
   * kept as long; nothing when MODEL_ENDPOINT_HOSTS no longer allows its host.
   */
  private ownEndpointIds(own: NonNullable<OwnKeys['openai']>): Promise<string[]> {
    const now = Date.now();
    const kept = this.ownListed.get(own.id);
    if (kept && kept.until > now) return kept.ids;
    let baseURL: string;
    try {
      baseURL = allowedEndpointUrl(own.baseUrl ?? '', this.config.modelEndpointHosts);
    } catch {
      return Promise.resolve([]);
    }
    if (own.apiKey === null) return Promise.resolve([]);
    if (this.ownListed.size >= OWN_LISTS_KEPT) this.ownListed.clear();
    const listed: Listed = {
      until: now + LISTED_FOR_MS,
      ids: this.listModels(
        new OpenAI({
          apiKey: own.apiKey,
          maxRetries: 0,
          timeout: LIST_TIMEOUT_MS,
          baseURL,
          fetchOptions: { redirect: 'error' },
        }),
        () => listed,
      ),
    };
    this.ownListed.set(own.id, listed);
    return listed.ids;
  }

  /** An endpoint's models as `openai:` ids, at most 200; none when it does not answer (asked again in 5 s). */
  private listModels(client: OpenAI, kept: () => Listed): Promise<string[]> {
    return (async () => {
      const names: string[] = [];
      for await (const model of client.models.list()) {
        if (names.length >= 200) break;
        const id = `openai:${model.id}`;
        if (modelIdSchema.safeParse(id).success) names.push(id);
      }
      return names;
    })().catch(() => {
      // Asked again soon rather than in a minute.
      kept().until = Date.now() + 5_000;
      return [];
    });
  }
}

import { z } from 'zod';
import { ruleViolated } from './errors';
import { FILLED, isFilled } from './filled-text';
import { allowedOutsideUrl } from './outside-hosts';

export const FILL_IN_EVERYTHING = 'Vui lòng điền đầy đủ thông tin';
export const API_KEY_NAME_MAX_LENGTH = 200;
export const API_KEY_MAX_LENGTH = 1000;
export const API_KEY_BASE_URL_MAX_LENGTH = 500;
/** How many own keys one user keeps: the newest active one of a type answers, so a few are enough. */
export const MAX_OWN_KEYS_PER_USER = 20;
export const OWN_KEYS_USED_UP = `Mỗi tài khoản có tối đa ${MAX_OWN_KEYS_PER_USER} API key; hãy xóa key không dùng nữa`;

/**
 * Whose key it is. `openai-compatible`: a key of an endpoint that speaks OpenAI's API at an address the user
 * gives (`baseUrl`, which only it takes); the others go where the server sends that provider's models.
 */
export const API_KEY_TYPES = ['gemini', 'openai', 'anthropic', 'openai-compatible'] as const;
export type ApiKeyType = (typeof API_KEY_TYPES)[number];

/** How messages and the keys page name each type. */
export const API_KEY_TYPE_LABELS: Record<ApiKeyType, string> = {
  gemini: 'Gemini',
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  'openai-compatible': 'OpenAI-compatible',
};

/**
 * The own key types that answer a provider's models, as a model id names the provider: an `openai` or an
 * `openai-compatible` key answers `openai:` models; a Gemini key answers Gemini's and the offline default (a
 * user with a Gemini key gets Gemini). Of those the user has, the newest active one answers.
 */
export function keyTypesAnswering(provider: string): readonly ApiKeyType[] {
  switch (provider) {
    case 'gemini':
    case 'offline':
      return ['gemini'];
    case 'openai':
      return ['openai', 'openai-compatible'];
    case 'anthropic':
      return ['anthropic'];
    default:
      return [];
  }
}

export const BASE_URL_REQUIRED =
  'Endpoint OpenAI-compatible cần có base URL, ví dụ https://llm.example.com/v1';
export const BASE_URL_NOT_TAKEN =
  'Chỉ key OpenAI-compatible mới có base URL; key Gemini, OpenAI và Anthropic đi tới địa chỉ của server';

/**
 * A new own key (POST /api/user/api-keys). Blank fields answer one message, without a field name before it;
 * the 'AI' prefix of the key is not checked. `baseUrl` (blank: none) belongs to an `openai-compatible` key,
 * which needs one: a rule of the product (keyEndpoint), not of the body's shape.
 */
export const newApiKeySchema = z
  .strictObject({
    keyName: z.string().max(API_KEY_NAME_MAX_LENGTH).optional().meta(FILLED),
    apiKey: z.string().max(API_KEY_MAX_LENGTH).optional().meta(FILLED),
    keyType: z.enum(API_KEY_TYPES).default('gemini'),
    baseUrl: z
      .string()
      .max(API_KEY_BASE_URL_MAX_LENGTH)
      .optional()
      .describe('openai-compatible only, and required there: the endpoint with its version path'),
  })
  .refine((body) => isFilled(body.keyName) && isFilled(body.apiKey), { message: FILL_IN_EVERYTHING })
  // The document names the fields required too (the check sits on the body for its one message).
  .meta({ required: ['keyName', 'apiKey'] })
  .transform((body) => ({
    keyName: body.keyName!.trim(),
    apiKey: body.apiKey!.trim(),
    keyType: body.keyType,
    baseUrl: isFilled(body.baseUrl) ? body.baseUrl!.trim() : null,
  }));

/** A new own key as validated. */
export type NewApiKey = z.output<typeof newApiKeySchema>;

/**
 * The endpoint of a new own key (null: none): an `openai-compatible` key needs one, no other type takes one
 * (400 otherwise), and it may reach only the hosts MODEL_ENDPOINT_HOSTS lists.
 */
export function keyEndpoint(key: NewApiKey, allowedHosts: readonly string[]): string | null {
  const problem = baseUrlProblem(key);
  if (problem !== null) throw ruleViolated(problem);
  return key.baseUrl === null ? null : allowedEndpointUrl(key.baseUrl, allowedHosts);
}

/** What is wrong with a new key's base URL for its type, if anything. */
function baseUrlProblem(key: NewApiKey): string | null {
  const compatible = key.keyType === 'openai-compatible';
  if (compatible && key.baseUrl === null) return BASE_URL_REQUIRED;
  if (!compatible && key.baseUrl !== null) return BASE_URL_NOT_TAKEN;
  return null;
}

/** The keys page's form: the body, and the base URL's rule said at once beside its field. */
export const newApiKeyForm = newApiKeySchema.superRefine((key, context) => {
  const problem = baseUrlProblem(key);
  if (problem !== null) context.addIssue({ code: 'custom', message: problem, path: ['baseUrl'] });
});

/**
 * An own key's endpoint, allowed only to the hosts MODEL_ENDPOINT_HOSTS lists, by the rule of every URL the
 * server calls on a user's word; answered without a trailing slash.
 */
export function allowedEndpointUrl(input: string, allowedHosts: readonly string[]): string {
  const url = allowedOutsideUrl(input, allowedHosts, {
    what: 'endpoint OpenAI-compatible',
    setting: 'MODEL_ENDPOINT_HOSTS',
    example: 'https://llm.example.com/v1',
  });
  return url.href.replace(/\/+$/, '');
}

/** A new key its provider refused: it is not saved. */
export const keyRejected = (provider: string, reason: string) =>
  `${provider} không nhận API key này: ${reason}`;

/** A provider's reason inside a sentence of ours: without its own full stop. */
const withoutStop = (reason: string) => reason.trim().replace(/\.+$/, '');

/** A saved key, never checked, that its provider refused at its first use: it is no longer used. */
export const ownKeyRejected = (provider: string, keyName: string, reason: string) =>
  `${provider} không nhận API key "${keyName}" đã lưu: ${withoutStop(reason)}. Key này không được dùng nữa; vui lòng thêm key khác ở trang API Keys.`;

/** A saved key, never checked, whose provider still cannot be asked about it at its first use. */
export const ownKeyStillUnchecked = (provider: string, keyName: string, reason: string) =>
  `Chưa kiểm tra được API key "${keyName}" với ${provider}: ${withoutStop(reason)}. Vui lòng thử lại sau, hoặc xóa key để dùng model của server.`;

/** A new key saved although its provider could not be asked about it. */
export const keyUnchecked = (provider: string, reason: string) =>
  `API key đã được lưu nhưng chưa kiểm tra được với ${provider}: ${reason}`;

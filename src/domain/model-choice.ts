import { z } from 'zod';

/**
 * A step's model: `provider:name`, e.g. `openai:gpt-4.1-mini`, `anthropic:claude-sonnet-4-5`,
 * `ollama:qwen3`, `gemini:gemini-2.5-flash`. The provider is a short lower-case word; the name is the
 * provider's own (it may hold `/`, `:` or `.`, as OpenRouter's and Ollama's do). Which models a server
 * offers is its configuration's: a step may name one it does not offer (imported from elsewhere), and then
 * runs on the default.
 */
export const MODEL_ID_MAX_LENGTH = 200;

/**
 * The name: 1 to 160 characters, none of them white space, a control character (C0, DEL, C1) or a lone
 * surrogate. Written without Unicode property escapes (\p{Cc}, \p{Cs}) so that the JSON Schema pattern made from
 * it reads the same in every engine, with the `u` flag or without (ajv either way, Python, .NET): a
 * character is one that is none of those, or a surrogate pair (without `u`, an astral character is two code
 * units; with it, one code point matched by the first class).
 */
const MODEL_ID =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what the class refuses
  /^[a-z][a-z0-9-]{0,31}:(?:[^\s\x00-\x1f\x7f-\x9f\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff]){1,160}$/u;

export const MODEL_ID_MESSAGE = 'model phải có dạng provider:name, ví dụ openai:gpt-4.1-mini';

export const modelIdSchema = z.string().trim().max(MODEL_ID_MAX_LENGTH).regex(MODEL_ID, MODEL_ID_MESSAGE);

/** The provider and the provider's name of a model id. */
export function parseModelId(id: string): { provider: string; name: string } {
  const colon = id.indexOf(':');
  return { provider: id.slice(0, colon), name: id.slice(colon + 1) };
}

/**
 * The id of the model that answers a run on `chosen`: `chosen` itself when its provider answers on that name
 * (whatever the provider's code is: Ollama's is OpenAI's), else what answered in its place (a Gemini model on
 * the user's own key, the offline model, a test's model), named by the provider's kind and its model.
 */
export function answeringModelId(chosen: string, answering: { kind: string; model: string }): string {
  return parseModelId(chosen).name === answering.model ? chosen : `${answering.kind}:${answering.model}`;
}

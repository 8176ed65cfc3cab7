import type { ModelRequest } from './model-provider';

/**
 * A JSON answer asked for in words: the schema goes into the system prompt, for an endpoint with no schema
 * parameter (Anthropic's Messages API) or one that takes it without enforcing it. The answer is checked against
 * the schema where it is used, as for every provider.
 */
export function jsonInstruction(schema: object): string {
  return [
    'Answer with JSON only: a single JSON value that conforms to the JSON schema below.',
    'Write no other text before or after it, and do not wrap it in a Markdown code fence.',
    '',
    JSON.stringify(schema, null, 2),
  ].join('\n');
}

/** The request's system prompt, with the JSON instruction after it when its schema goes by the prompt. */
export function withJsonInstruction(system: string, json: ModelRequest['json'] | undefined): string {
  const instructed = json && (json.via === 'prompt' || json.via === 'both');
  return [system, instructed ? jsonInstruction(json.schema) : '']
    .filter((part) => part.trim() !== '')
    .join('\n\n');
}

/** Whether the request's schema goes to the endpoint's schema parameter. */
export const schemaParameterSent = (
  json: ModelRequest['json'] | undefined,
): json is NonNullable<ModelRequest['json']> => json !== undefined && json.via !== 'prompt';

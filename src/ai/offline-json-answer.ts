import { firstSentence, keywordsOf, OFFLINE_MARKER, readPrompt, shorten } from './offline-answer';
import { offlineWorkflow } from './offline-workflow';

type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : {};

/** JSON Schema says 'string'; Google's OpenAPI subset says 'STRING'; a nullable type is a list. */
function typeOf(schema: Schema): string | undefined {
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t): t is string => typeof t === 'string' && t.toLowerCase() !== 'null',
  );
  if (types[0]) return types[0].toLowerCase();
  if (schema.properties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

const propertiesOf = (schema: Schema): Array<[string, Schema]> =>
  Object.entries(asSchema(schema.properties)).map(([name, property]) => [name, asSchema(property)]);

/** FNV-1a: the same prompt always gets the same pick, on every machine. */
function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** `systemPrompt` -> 'system prompt'. */
const wordsOf = (name: string) =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();

/** A value that conforms to `schema`: every property, 3 items per list, the first of an enum. */
export function valueForSchema(schema: Schema, topic: string, name = 'value', position = 1): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options) && options.length > 0)
    return valueForSchema(asSchema(options[0]), topic, name, position);
  switch (typeOf(schema)) {
    case 'object':
      return Object.fromEntries(
        propertiesOf(schema).map(([key, property]) => [key, valueForSchema(property, topic, key, position)]),
      );
    case 'array': {
      const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const max = typeof schema.maxItems === 'number' ? schema.maxItems : Number.POSITIVE_INFINITY;
      const count = Math.min(Math.max(3, min), max);
      const item = asSchema(schema.items);
      return Array.from({ length: count }, (_, i) => valueForSchema(item, topic, name, i + 1));
    }
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.ceil(schema.minimum) : position;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      const text = `${OFFLINE_MARKER} ${wordsOf(name)} ${position}: ${topic}`;
      return typeof schema.maxLength === 'number' ? text.slice(0, schema.maxLength) : text;
    }
  }
}

/** The multiple-output contract: a list of alternatives, each `{branchName, content}`. */
function isBranchList(schema: Schema): boolean {
  const item = asSchema(schema.items);
  const names = propertiesOf(item).map(([name]) => name);
  return typeOf(schema) === 'array' && names.includes('branchName') && names.includes('content');
}

/** The workflow-generation contract: `{name, description, steps: [{systemPrompt, inputSources, ...}]}`. */
function isWorkflowSchema(schema: Schema): boolean {
  const properties = asSchema(schema.properties);
  const stepProperties = asSchema(asSchema(asSchema(properties.steps).items).properties);
  return 'name' in properties && 'systemPrompt' in stepProperties && 'inputSources' in stepProperties;
}

const APPROACHES = ['Straightforward', 'Detailed', 'Creative'];

function branches(topic: string, keywords: string[]) {
  return APPROACHES.map((approach, i) => ({
    branchName: `${approach} approach`,
    content: `${OFFLINE_MARKER} ${approach} take on: ${topic}${keywords[i] ? ` Focus: ${keywords[i]}.` : ''}`,
  }));
}

/**
 * The offline answer to a structured request, honouring the same contracts as Gemini: 3 alternatives for
 * a list of branches, one of the listed choices (picked by a stable hash of the prompt), a 3-step
 * workflow for a workflow description, or otherwise a value built from the schema. Returned as JSON text.
 */
export function offlineJsonAnswer(schema: object, prompt: string): string {
  const root = asSchema(schema);
  // The whole prompt is the description: it may have headings of its own.
  if (isWorkflowSchema(root)) return JSON.stringify(offlineWorkflow(prompt), null, 2);
  const { task, input } = readPrompt(prompt);
  const topic = firstSentence(task || prompt, 100) || 'the task';

  if (isBranchList(root)) return JSON.stringify(branches(topic, keywordsOf(`${task}\n${input}`, 3)), null, 2);

  const choices = asSchema(asSchema(root.properties).choice).enum;
  if (typeOf(root) === 'object' && Array.isArray(choices) && choices.length > 0) {
    const choice = choices[stableHash(prompt) % choices.length];
    const answer = asSchema(valueForSchema(root, topic));
    answer.choice = choice;
    if ('reason' in answer) {
      answer.reason = `${OFFLINE_MARKER} Picked deterministically from the prompt, not reasoned: ${shorten(topic, 60)}`;
    }
    return JSON.stringify(answer, null, 2);
  }

  return JSON.stringify(valueForSchema(root, topic), null, 2);
}

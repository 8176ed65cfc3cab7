import { ModelCallError, type ModelProvider, type SchemaVia } from './model-provider';
import { createModelStream } from './model-stream';

/**
 * What a probe found of an endpoint's schema parameter for one model: `enforced` (the answer held to the
 * schema), `ignored` (the parameter taken, the answer free), `refused` (the endpoint answers an error to the
 * parameter and a plain request fine).
 */
export type SchemaFinding = 'enforced' | 'ignored' | 'refused';

export const SCHEMA_FINDINGS = ['enforced', 'ignored', 'refused'] as const;

const PROBE_VALUE = 'schema-probe-ok';

/** A schema no model answers by chance: one string property held to one value it is never told. */
export const PROBE_SCHEMA = {
  type: 'object',
  properties: { probe: { type: 'string', enum: [PROBE_VALUE] } },
  required: ['probe'],
  additionalProperties: false,
} as const;

/** Words with no hint of JSON: only a model held to the schema answers with it. */
export const PROBE_PROMPT = 'Say hello in one short sentence.';

/** How long a probe may take, each of its calls. */
export const PROBE_TIMEOUT_MS = 30_000;

/**
 * How a request's schema goes to a model the probe found so: by the parameter alone where it is enforced;
 * by the prompt alone where the endpoint refuses the parameter; by both where it is ignored, or not known.
 */
export const viaOf = (finding: SchemaFinding | null): SchemaVia =>
  finding === 'enforced' ? 'api' : finding === 'refused' ? 'prompt' : 'both';

/** Whether the text is the one answer the probe schema allows. */
export function fitsProbe(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text.trim());
    return (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.keys(value).length === 1 &&
      (value as { probe?: unknown }).probe === PROBE_VALUE
    );
  } catch {
    return false;
  }
}

/** A call the endpoint refused as malformed: what one that does not know the schema parameter answers. */
const refusedAsMalformed = (error: unknown) =>
  error instanceof ModelCallError && (error.status === 400 || error.status === 422);

/**
 * Asks the model the probe: the schema by the parameter alone, and the answer tells whether it held. An
 * endpoint that refuses the request as malformed is asked again without the parameter: answering that, it
 * refuses the parameter. Null when a call failed for a reason that says nothing of the schema (a wrong key,
 * an unknown model, a network failure): nothing is learnt, and the next structured request probes again.
 */
export async function probeSchema(provider: ModelProvider): Promise<SchemaFinding | null> {
  const ask = (via: SchemaVia) =>
    provider.stream({
      system: '',
      prompt: PROBE_PROMPT,
      json: { schema: PROBE_SCHEMA, via },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    }).final;
  try {
    return fitsProbe((await ask('api')).text) ? 'enforced' : 'ignored';
  } catch (error) {
    if (!refusedAsMalformed(error)) return null;
  }
  try {
    await ask('prompt');
    return 'refused';
  } catch {
    return null;
  }
}

/** Where probe findings are kept: each model is probed once, whoever asks first. */
export interface SchemaFindings {
  /** The model's finding, probing it when none is known (null: the probe learnt nothing). */
  findingFor(provider: ModelProvider): Promise<SchemaFinding | null>;
}

/**
 * The provider, with a structured request's schema sent the way its model's probe found it takes it (probed
 * first when not known yet). A request that says how its schema goes, a request without one, and a provider
 * that is not probed go as they are.
 */
export function probedForSchema(provider: ModelProvider, findings: SchemaFindings): ModelProvider {
  if (!provider.schemaProbe) return provider;
  return {
    ...provider,
    stream(request) {
      const { json } = request;
      if (!json || json.via) return provider.stream(request);
      return createModelStream(request.signal, async (emit) => {
        const via = viaOf(await findings.findingFor(provider));
        const answer = provider.stream({ ...request, json: { ...json, via } });
        for await (const text of answer) emit(text);
        return (await answer.final).usage;
      });
    },
  };
}

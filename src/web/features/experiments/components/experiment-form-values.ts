import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_REPETITIONS,
  type ReviewMode,
  type StartExperimentRequest,
  startExperimentRequestSchema,
} from '../../../../domain/experiment/config';
import type { ScorerDefinition, ScorerType } from '../../../../domain/experiment/scorer-definitions';
import { form as t } from '../strings';

/**
 * A scorer as the form edits it: every type's fields side by side, as text, so adding, removing and
 * switching a scorer's type keeps one shape; only the fields of its type are sent.
 */
export interface ScorerFormValues {
  type: ScorerType;
  name: string;
  stepId: string;
  caseSensitive: boolean;
  text: string;
  pattern: string;
  flags: string;
  schema: string;
  min: string;
  max: string;
  threshold: string;
  model: string;
  prompt: string;
}

/** The experiment form: what it holds, and the request its check makes of it. */
export type ExperimentFormApi = UseFormReturn<ExperimentFormValues, unknown, StartExperimentRequest>;

/** What the experiment form holds: numbers typed are text until sent. */
export interface ExperimentFormValues {
  flowVersion: string;
  datasetId: string;
  review: Record<string, ReviewMode>;
  models: Record<string, string>;
  scorers: ScorerFormValues[];
  repetitions: string;
  concurrency: string;
  baselineId: string;
}

export const newScorer = (type: ScorerType = 'contains'): ScorerFormValues => ({
  type,
  name: '',
  stepId: '',
  caseSensitive: false,
  text: '',
  pattern: '',
  flags: '',
  schema: '{\n  "type": "object"\n}',
  min: '',
  max: '',
  threshold: '',
  model: '',
  prompt: '',
});

export const defaultFormValues = (preset: Partial<ExperimentFormValues> = {}): ExperimentFormValues => ({
  flowVersion: '',
  datasetId: '',
  review: {},
  models: {},
  scorers: [],
  repetitions: String(DEFAULT_REPETITIONS),
  concurrency: String(DEFAULT_CONCURRENCY),
  baselineId: '',
  ...preset,
});

/** A number typed, or nothing when the field is left empty (a text that is no number stays one, to be refused). */
const numberOr = (text: string): number | undefined => {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const value = Number(trimmed);
  return Number.isNaN(value) ? (trimmed as unknown as number) : value;
};

const optional = <T>(key: string, value: T | undefined | '') =>
  value === undefined || value === '' ? {} : { [key]: value };

/** The definition of one scorer of the form: the fields of its type, what was left empty left out. */
export function scorerOf(scorer: ScorerFormValues): ScorerDefinition {
  // A field of another type is not on screen, and so not in the values: empty.
  const values = { ...newScorer(scorer.type), ...scorer };
  const common = { ...optional('name', values.name.trim()), ...optional('stepId', values.stepId) };
  switch (values.type) {
    case 'equals':
      return { type: 'equals', ...common, ...(values.caseSensitive ? { caseSensitive: true } : {}) };
    case 'contains':
      return { type: 'contains', ...common, text: values.text };
    case 'regex':
      return { type: 'regex', ...common, pattern: values.pattern, ...optional('flags', values.flags.trim()) };
    case 'jsonSchema':
      return { type: 'jsonSchema', ...common, schema: parsedObject(values.schema) ?? {} };
    case 'length':
      return {
        type: 'length',
        ...common,
        ...optional('min', numberOr(values.min)),
        ...optional('max', numberOr(values.max)),
      };
    case 'similarity':
      return { type: 'similarity', ...common, ...optional('threshold', numberOr(values.threshold)) };
    case 'judge':
      return { type: 'judge', ...common, model: values.model.trim(), prompt: values.prompt };
  }
}

/** A JSON object's text as the object, or null when it is not one. */
export function parsedObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** The request of `POST /api/experiments` the form's values make, for the flow. */
export function requestOf(flowId: string, values: ExperimentFormValues) {
  const models = Object.fromEntries(
    Object.entries(values.models ?? {})
      .map(([stepId, model]) => [stepId, (model ?? '').trim()] as const)
      .filter(([, model]) => model !== ''),
  );
  return {
    flowId,
    flowVersion: numberOr(values.flowVersion),
    datasetId: values.datasetId,
    ...(values.baselineId ? { baselineId: values.baselineId } : {}),
    models,
    review: { ...(values.review ?? {}) },
    scorers: (values.scorers ?? []).map(scorerOf),
    repetitions: numberOr(values.repetitions),
    concurrency: numberOr(values.concurrency),
  };
}

/**
 * The form's check: what only the form knows (a dataset chosen, a schema that is JSON), then the request it
 * makes checked by the domain's own schema, so a field the server would refuse is refused at its field. What
 * passes is the request to send.
 */
export const experimentFormSchema = (flowId: string) =>
  z
    .custom<ExperimentFormValues>()
    .superRefine((values, context) => {
      if (!values.flowVersion)
        context.addIssue({ code: 'custom', path: ['flowVersion'], message: t.required });
      if (!values.datasetId) context.addIssue({ code: 'custom', path: ['datasetId'], message: t.required });
      values.scorers?.forEach((scorer, index) => {
        if (scorer.type === 'jsonSchema' && parsedObject(scorer.schema) === null)
          context.addIssue({ code: 'custom', path: ['scorers', index, 'schema'], message: t.schemaInvalid });
      });
    })
    .transform((values): unknown => requestOf(flowId, values))
    .pipe(startExperimentRequestSchema);

/** The server names steps by id: each step of the version is named by its name instead. */
export function withStepNames(message: string, steps: readonly { id: string; name: string }[]): string {
  return steps.reduce((text, step) => text.split(step.id).join(`"${step.name}"`), message);
}

import { z } from 'zod';
import { DomainError } from '../errors';
import type { OutputMode } from '../flow';
import type { ResultDraft } from './types';

/** A result the model's answer gives, before it has an id. */
export type OutputResult = Omit<ResultDraft, 'resultId'>;

export interface StepOutput {
  outputMode: OutputMode;
  choices: readonly string[];
  /** The run's loop iteration; 0 for a run outside a loop. */
  loopIteration: number;
  /** The model's answer, as text. */
  output: string;
}

const branch = z.object({ branchName: z.string().nullish(), content: z.string() });
const branches = z.union([
  z.array(branch).min(1),
  z.object({ branches: z.array(branch).min(1) }).transform((answer) => answer.branches),
]);
const pick = z.object({
  choice: z.string().optional(),
  choiceIndex: z.number().int().optional(),
  reason: z.string().optional(),
});

/**
 * An answer as JSON: models often wrap JSON in a markdown fence even when asked not to; the fence is not part
 * of the answer. Undefined when it is no JSON.
 */
export function jsonOf(output: string): unknown {
  const text = output.trim();
  const fenced = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/.exec(text);
  try {
    return JSON.parse(fenced ? fenced[1]! : text);
  } catch {
    return undefined;
  }
}

const result = (fields: Partial<OutputResult> & Pick<OutputResult, 'label' | 'content'>): OutputResult => ({
  branchName: null,
  branchPath: null,
  choiceIndex: null,
  loopIteration: null,
  ...fields,
});

function multipleResults(output: string): OutputResult[] {
  const parsed = branches.safeParse(jsonOf(output));
  if (!parsed.success) {
    throw brokenContract(
      'The model answer is not in the multiple-output format: expected a JSON list of {branchName, content}.',
    );
  }
  return parsed.data.map((b, i) => {
    const name = b.branchName?.trim() || null;
    return result({ label: name ?? `Branch ${i + 1}`, branchName: name, content: b.content });
  });
}

function choiceResult(output: string, choices: readonly string[]): OutputResult {
  if (choices.length === 0) {
    throw brokenContract('This multiple-choice step has no choices to pick from.');
  }
  const refused = brokenContract(
    `The model answer does not pick one of the choices (${choices.join(' | ')}): expected JSON {"choice": "..."}.`,
  );
  const parsed = pick.safeParse(jsonOf(output));
  if (!parsed.success) throw refused;
  const { choice, choiceIndex, reason } = parsed.data;
  const index =
    choice !== undefined
      ? choices.findIndex((c) => c.trim().toLowerCase() === choice.trim().toLowerCase())
      : (choiceIndex ?? -1);
  const chosen = choices[index];
  if (chosen === undefined) throw refused;
  const why = reason?.trim();
  return result({
    label: `path: ${chosen}`,
    branchName: chosen,
    branchPath: chosen,
    choiceIndex: index,
    content: why ? `${chosen}\n\n${why}` : chosen,
  });
}

/** A model answer that breaks its step's JSON contract is a failed model call: asking again may mend it. */
const brokenContract = (message: string) => new DomainError('model_failed', message, { retryable: true });

/** Why an answer breaks its step's format, in words the model can be told; null when it fits. */
export function outputProblem(answer: StepOutput): string | null {
  try {
    parseStepOutput(answer);
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error.message;
    throw error;
  }
}

/**
 * The results a model answer gives for a step's output mode. An answer that breaks the mode's JSON
 * contract is a failed model call, so the run is recorded as failed (and retryable) instead of
 * producing results nobody asked for.
 */
export function parseStepOutput(answer: StepOutput): OutputResult[] {
  switch (answer.outputMode) {
    case 'single':
      return [result({ label: 'Branch 1', content: answer.output })];
    case 'loop':
      return [
        result({
          label: `Loop ${answer.loopIteration}`,
          loopIteration: answer.loopIteration,
          content: answer.output,
        }),
      ];
    case 'multiple':
      return multipleResults(answer.output);
    case 'multiple_choice':
      return [choiceResult(answer.output, answer.choices)];
    default: {
      const unknown: never = answer.outputMode;
      throw brokenContract(`Unknown output mode ${String(unknown)}`);
    }
  }
}

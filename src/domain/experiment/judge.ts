import { jsonOf } from '../execution/output';
import type { Score, ScorerDefinition } from './scorer-definitions';
import { scorerName } from './scorer-definitions';

export type JudgeDefinition = Extract<ScorerDefinition, { type: 'judge' }>;

/** What a judge reads of a run: the step's output, the item's expected text of it and the step's input. */
export interface JudgedText {
  output: string;
  expected?: string | null | undefined;
  input?: string | null | undefined;
}

/**
 * The judge's instruction: it answers one JSON object, so its verdict is read the same way from every model
 * (the request also asks for the schema, where the provider enforces one).
 */
export const JUDGE_INSTRUCTION =
  'You grade the output of one step of a prompt flow against the criteria the user gives. ' +
  'Answer with one JSON object only: {"pass": true or false, "reason": "one or two sentences"}.';

export const JUDGE_SCHEMA = {
  type: 'object',
  properties: { pass: { type: 'boolean' }, reason: { type: 'string' } },
  required: ['pass', 'reason'],
  additionalProperties: false,
} as const;

/** The placeholders a judge's prompt may use; a prompt without `{{output}}` gets the output after it. */
export const JUDGE_PLACEHOLDERS = ['{{output}}', '{{expected}}', '{{input}}'] as const;

export const JUDGE_MESSAGES = {
  unreadable: 'Không đọc được câu trả lời của judge (cần JSON {"pass": true|false, "reason": "..."})',
} as const;

/** The judge's prompt for one output: its placeholders filled in, the output added when it names none. */
export function judgePrompt(definition: Pick<JudgeDefinition, 'prompt'>, text: JudgedText): string {
  const fill = (template: string) =>
    template
      .replaceAll('{{output}}', text.output)
      .replaceAll('{{expected}}', text.expected ?? '')
      .replaceAll('{{input}}', text.input ?? '');
  const prompt = fill(definition.prompt);
  return definition.prompt.includes('{{output}}') ? prompt : `${prompt}\n\nOutput:\n${text.output}`;
}

/**
 * The judge's verdict, read from its answer: the JSON object it was asked for (a fenced block too), else a
 * first word PASS or FAIL. null: the answer says neither, which counts as not passing.
 */
export function judgeVerdict(answer: string): { pass: boolean | null; reason: string } {
  const json = jsonOf(answer);
  if (json !== undefined && typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const { pass, reason } = json as { pass?: unknown; reason?: unknown };
    if (typeof pass === 'boolean') return { pass, reason: typeof reason === 'string' ? reason : '' };
  }
  const word = /^\W*(pass|fail)\b/i.exec(answer.trim())?.[1]?.toLowerCase();
  if (word) return { pass: word === 'pass', reason: answer.trim() };
  return { pass: null, reason: answer.trim() };
}

/** The judge's score of a step's output: passed or not, the reason as the comment, by the judge's model. */
export function judgeScore(
  definition: JudgeDefinition,
  target: { executionId: string; stepId: string },
  answer: string,
): Score {
  const verdict = judgeVerdict(answer);
  const comment = verdict.pass === null ? `${JUDGE_MESSAGES.unreadable}: ${verdict.reason}` : verdict.reason;
  return {
    target: 'step',
    executionId: target.executionId,
    stepId: target.stepId,
    name: scorerName(definition),
    kind: 'boolean',
    value: verdict.pass === true,
    source: 'judge',
    by: definition.model,
    comment: comment.slice(0, 2_000),
  };
}

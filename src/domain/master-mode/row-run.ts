import { ruleViolated } from '../errors';
import { checkSize, type Limits } from '../limits';
import { allowedOutsideUrl } from '../outside-hosts';
import { CalculationError, evaluateCalculation, formatCalculation } from './calculation';
import type { MasterStep } from './master-session';
import { type ResolvedText, resolvedSize, resolveRowReferences, rowNumber } from './row-references';

/**
 * What running one master mode row means, decided without I/O: text and calculation rows are answered
 * here; ai and api rows come back as the request to make.
 */
export type RowRunPlan =
  | { kind: 'answered'; result: string; input: ResolvedText }
  | {
      kind: 'model';
      /** The model the row names (`provider:name`); null: the server's default. */
      model: string | null;
      system: string;
      prompt: string;
      input: ResolvedText;
      systemPrompt: ResolvedText;
    }
  | { kind: 'http'; url: URL; input: ResolvedText };

export const DEFAULT_MASTER_INPUT = 'Master mode execution - no additional input';

const SYSTEM_FOR_AI_ROW =
  'You are one row of a spreadsheet-like AI worksheet. Do the task of this row clearly, in the language of the task.';

export const rowLabel = (position: number, row: Pick<MasterStep, 'stepName'>) =>
  `Dòng ${rowNumber(position)} "${row.stepName}"`;

/** A required row may not run with blank input. */
export function blankRequiredRow(rows: readonly MasterStep[]): { position: number; row: MasterStep } | null {
  const index = rows.findIndex((row) => row.isRequired && row.userInput.trim() === '');
  return index === -1 ? null : { position: index + 1, row: rows[index]! };
}

export const requiredInputMessage = (position: number, row: Pick<MasterStep, 'stepName'>) =>
  `${rowLabel(position, row)} là bắt buộc: hãy nhập input trước khi chạy`;

/**
 * An API row's URL, allowed only to the hosts listed (MASTER_MODE_API_HOSTS). An entry `host:port`
 * allows that port; an entry without a port allows the scheme's default port only.
 */
export function allowedApiUrl(input: string, allowedHosts: readonly string[]): URL {
  return allowedOutsideUrl(input, allowedHosts, {
    what: 'API row',
    setting: 'MASTER_MODE_API_HOSTS',
    example: 'https://api.example.com/data',
  });
}

/**
 * The plan for running the row at `position` (1-based) of `rows`: its prompt and input with every
 * `[[row-N]]` replaced by row N's current result. The sizes are counted first: a text past MAX_TEXT_CHARS
 * or a prompt past MAX_PROMPT_CHARS is refused (413) before it is put together.
 */
export function planRowRun(
  rows: readonly MasterStep[],
  position: number,
  allowedHosts: readonly string[],
  limits: Limits,
): RowRunPlan {
  const row = rows[position - 1];
  if (!row) throw ruleViolated(`Session không có dòng ${position}`);
  if (row.isRequired && row.userInput.trim() === '') {
    throw ruleViolated(requiredInputMessage(position, row));
  }
  const results = rows.map((r) => r.result);
  const inputSize = resolvedSize(row.userInput, results);
  if (row.stepType === 'ai') {
    // The prompt: the resolved system prompt, the resolved input and their two headings.
    const promptSize = resolvedSize(row.systemPrompt, results) + inputSize + 20;
    checkSize(`${rowLabel(position, row)}: prompt`, promptSize, 'maxPromptChars', limits);
  } else {
    checkSize(`${rowLabel(position, row)}: input`, inputSize, 'maxTextChars', limits);
  }
  const input = resolveRowReferences(row.userInput, results);
  switch (row.stepType) {
    case 'text':
      return { kind: 'answered', result: input.text, input };
    case 'calculation':
      try {
        return {
          kind: 'answered',
          result: formatCalculation(evaluateCalculation(row.userInput, results)),
          input,
        };
      } catch (error) {
        if (error instanceof CalculationError) {
          throw ruleViolated(`${rowLabel(position, row)}: ${error.message}`);
        }
        throw error;
      }
    case 'api':
      return { kind: 'http', url: allowedApiUrl(input.text, allowedHosts), input };
    case 'ai': {
      const systemPrompt = resolveRowReferences(row.systemPrompt, results);
      const sections = [];
      if (systemPrompt.text.trim() !== '') sections.push(systemPrompt.text.trim());
      sections.push(`## User input\n${input.text.trim() || DEFAULT_MASTER_INPUT}`);
      return {
        kind: 'model',
        model: row.model,
        system: SYSTEM_FOR_AI_ROW,
        prompt: sections.join('\n\n'),
        input,
        systemPrompt,
      };
    }
    default: {
      const unknown: never = row.stepType;
      throw ruleViolated(`Step type không hợp lệ: ${String(unknown)}`);
    }
  }
}

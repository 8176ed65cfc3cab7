import type { StepSnapshot } from '../flow';
import { checkSize, type Limits } from '../limits';
import {
  type ConversationContext,
  DEFAULT_USER_INPUT,
  type StepResult,
  type UnreviewedResultUse,
} from './types';

export interface PromptInput {
  step: StepSnapshot;
  /** The execution's steps; only those before `step` may be referenced. */
  steps: readonly StepSnapshot[];
  /** The execution's results, every version. */
  results: readonly StepResult[];
  userInput: string;
  conversation: ConversationContext;
  /** The loop iteration being run (1-based); earlier iterations of the step are shown to the model. */
  loopIteration?: number;
  /** When given, a prompt past `maxPromptChars` is refused (413) before it is put together. */
  limits?: Limits;
}

export interface BuiltPrompt {
  finalPrompt: string;
  /** Each resolved label, as written in the prompt, and the text that replaced it. */
  stepLabels: Record<string, string>;
  /** Labels left as written because nothing earlier answers to them. */
  unresolvedLabels: string[];
  /** Results the prompt used that nobody had approved, in the order the prompt first used them. */
  unreviewedResults: UnreviewedResultUse[];
  /** Every result the prompt used, approved or not, each once. */
  usedResultIds: string[];
}

const LABEL = /\[\[([^[\]]+)\]\]/g;
const STEP_BY_ORDER = /^step[-_](\d+)$/;

/** The labels a prompt references, trimmed, each once, in the order they first appear. */
export function detectLabels(prompt: string): string[] {
  const labels: string[] = [];
  for (const match of prompt.matchAll(LABEL)) {
    const label = match[1]!.trim();
    if (label !== '' && !labels.includes(label)) labels.push(label);
  }
  return labels;
}

const byCreation = (results: readonly StepResult[]) =>
  [...results].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));

/**
 * What a later step sees of some results: the approved ones if the user approved any. Only when none is
 * approved, as when QuickRun runs on ahead of review, it sees the latest version, unreviewed; the prompt
 * building records each such result, so a run never chains through unreviewed text without saying so.
 * A loop step's latest version is the latest run of each iteration, so a reference to it sees the whole
 * loop and not only its last turn.
 */
export function referencedResults(results: readonly StepResult[]): StepResult[] {
  const ordered = byCreation(results);
  const approved = ordered.filter((r) => r.approved);
  if (approved.length > 0) return approved;
  const latestRun = new Map<number | null, string>();
  for (const result of ordered) latestRun.set(result.loopIteration, result.runId);
  return ordered
    .filter((r) => latestRun.get(r.loopIteration) === r.runId)
    .sort((a, b) => (a.loopIteration ?? 0) - (b.loopIteration ?? 0));
}

/**
 * Text as pieces: the prompt is counted from its pieces and joined only once it is known to fit, so a
 * reference repeated a thousand times costs a thousand pointers, not a thousand copies.
 */
type Pieces = string[];

const sizeOf = (pieces: readonly string[]) => pieces.reduce((total, piece) => total + piece.length, 0);

/** `parts` with `separator` between them, as pieces. */
function joined(parts: readonly Pieces[], separator: string): Pieces {
  return parts.flatMap((part, i) => (i === 0 ? part : [separator, ...part]));
}

/** Several results are told apart by their labels; a single one is its text alone. */
function textOf(results: readonly StepResult[]): Pieces {
  if (results.length === 1) return [results[0]!.result];
  return joined(
    results.map((r, i) => [`${r.label ?? `Result ${i + 1}`}:\n`, r.result]),
    '\n\n',
  );
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function buildPrompt(input: PromptInput): BuiltPrompt {
  const { step, conversation } = input;
  const earlierSteps = input.steps.filter((s) => s.order < step.order && s.id !== step.id);
  const resultsOf = (stepIds: readonly string[]) => input.results.filter((r) => stepIds.includes(r.stepId));
  const earlierResults = resultsOf(earlierSteps.map((s) => s.id));
  // By result id: a result used through several labels or sources is listed once.
  const unreviewed = new Map<string, UnreviewedResultUse>();
  const usedIds = new Set<string>();
  /** The text of the results a reference names, noting those not approved. */
  const use = (results: readonly StepResult[]): Pieces => {
    const used = referencedResults(results);
    for (const r of used) {
      usedIds.add(r.id);
      if (!r.approved && !unreviewed.has(r.id))
        unreviewed.set(r.id, { resultId: r.id, stepId: r.stepId, stepOrder: r.stepOrder, label: r.label });
    }
    return textOf(used);
  };

  // The forms are tried in a fixed order; the first that yields text wins.
  const resolve = (label: string): Pieces | null => {
    const key = label.trim().toLowerCase();
    const byOrder = STEP_BY_ORDER.exec(key);
    const candidates = [
      byOrder ? resultsOf(earlierSteps.filter((s) => s.order === Number(byOrder[1])).map((s) => s.id)) : [],
      earlierResults.filter((r) => r.label !== null && sameName(r.label, key)),
      resultsOf(earlierSteps.filter((s) => sameName(s.name, key)).map((s) => s.id)),
    ];
    const found = candidates.find((results) => results.length > 0);
    return found ? use(found) : null;
  };

  // A Map, not an object: a label may be any text, '__proto__' and 'constructor' included.
  const resolved = new Map<string, Pieces>();
  const unresolvedLabels: string[] = [];
  for (const label of detectLabels(step.systemPrompt)) {
    const text = resolve(label);
    if (text === null) unresolvedLabels.push(label);
    else resolved.set(label, text);
  }
  // Each reference is the pieces of its text, shared by every place it appears.
  const systemPrompt: Pieces = [];
  let from = 0;
  for (const match of step.systemPrompt.matchAll(LABEL)) {
    const text = resolved.get(match[1]!.trim());
    if (!text) continue;
    systemPrompt.push(step.systemPrompt.slice(from, match.index), ...text);
    from = match.index + match[0].length;
  }
  systemPrompt.push(step.systemPrompt.slice(from));

  const sections: Pieces[] = [];
  if (systemPrompt.some((piece) => piece.trim() !== '')) sections.push(systemPrompt);

  const sources = earlierSteps
    .filter((s) => step.inputSources.includes(s.id))
    .sort((a, b) => a.order - b.order);
  for (const source of sources) {
    const results = resultsOf([source.id]);
    if (results.length > 0)
      sections.push([`## Context from Step ${source.order}: ${source.name}\n`, ...use(results)]);
  }

  const iteration = input.loopIteration ?? 0;
  const previous: Pieces[] = [];
  for (let n = 1; n < iteration; n++) {
    const results = resultsOf([step.id]).filter((r) => r.loopIteration === n);
    if (results.length > 0) previous.push([`### Loop ${n}\n`, ...use(results)]);
  }
  if (previous.length > 0) sections.push(['## Previous iterations\n', ...joined(previous, '\n\n')]);

  if (conversation.userNotes.trim() !== '')
    sections.push([`## User notes\n${conversation.userNotes.trim()}`]);
  if (conversation.rejectedIdeas.trim() !== '') {
    sections.push([`## Rejected ideas (do not repeat)\n${conversation.rejectedIdeas.trim()}`]);
  }
  sections.push([`## User input\n${input.userInput.trim() || DEFAULT_USER_INPUT}`]);

  const prompt = joined(sections, '\n\n');
  if (input.limits) checkSize('Prompt', sizeOf(prompt), 'maxPromptChars', input.limits);
  const stepLabels = Object.fromEntries([...resolved].map(([label, text]) => [label, text.join('')]));
  return {
    finalPrompt: prompt.join(''),
    stepLabels,
    unresolvedLabels,
    unreviewedResults: [...unreviewed.values()],
    usedResultIds: [...usedIds],
  };
}

import type { StepSnapshot } from '../flow';
import { type ConversationContext, DEFAULT_USER_INPUT, type StepResult } from './types';

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
}

export interface BuiltPrompt {
  finalPrompt: string;
  /** Each resolved label, as written in the prompt, and the text that replaced it. */
  stepLabels: Record<string, string>;
  /** Labels left as written because nothing earlier answers to them. */
  unresolvedLabels: string[];
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
 * What a later step sees of some results: the approved ones if the user approved any, otherwise the
 * latest version. A loop step's latest version is the latest run of each iteration, so a reference to
 * it sees the whole loop and not only its last turn.
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

/** Several results are told apart by their labels; a single one is its text alone. */
function textOf(results: readonly StepResult[]): string {
  if (results.length === 1) return results[0]!.result;
  return results.map((r, i) => `${r.label ?? `Result ${i + 1}`}:\n${r.result}`).join('\n\n');
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function buildPrompt(input: PromptInput): BuiltPrompt {
  const { step, conversation } = input;
  const earlierSteps = input.steps.filter((s) => s.order < step.order && s.id !== step.id);
  const resultsOf = (stepIds: readonly string[]) => input.results.filter((r) => stepIds.includes(r.stepId));
  const earlierResults = resultsOf(earlierSteps.map((s) => s.id));

  // The forms are tried in the spec's order; the first that yields text wins.
  const resolve = (label: string): string | null => {
    const key = label.trim().toLowerCase();
    const byOrder = STEP_BY_ORDER.exec(key);
    const candidates = [
      byOrder ? resultsOf(earlierSteps.filter((s) => s.order === Number(byOrder[1])).map((s) => s.id)) : [],
      earlierResults.filter((r) => r.label !== null && sameName(r.label, key)),
      resultsOf(earlierSteps.filter((s) => sameName(s.name, key)).map((s) => s.id)),
    ];
    const found = candidates.find((results) => results.length > 0);
    return found ? textOf(referencedResults(found)) : null;
  };

  // A Map, not an object: a label may be any text, '__proto__' and 'constructor' included.
  const resolved = new Map<string, string>();
  const unresolvedLabels: string[] = [];
  for (const label of detectLabels(step.systemPrompt)) {
    const text = resolve(label);
    if (text === null) unresolvedLabels.push(label);
    else resolved.set(label, text);
  }
  const systemPrompt = step.systemPrompt.replace(LABEL, (written, label: string) => {
    return resolved.get(label.trim()) ?? written;
  });

  const sections: string[] = [];
  if (systemPrompt.trim() !== '') sections.push(systemPrompt);

  const sources = earlierSteps
    .filter((s) => step.inputSources.includes(s.id))
    .sort((a, b) => a.order - b.order);
  for (const source of sources) {
    const results = referencedResults(resultsOf([source.id]));
    if (results.length > 0)
      sections.push(`## Context from Step ${source.order}: ${source.name}\n${textOf(results)}`);
  }

  const iteration = input.loopIteration ?? 0;
  const previous: string[] = [];
  for (let n = 1; n < iteration; n++) {
    const results = referencedResults(resultsOf([step.id]).filter((r) => r.loopIteration === n));
    if (results.length > 0) previous.push(`### Loop ${n}\n${textOf(results)}`);
  }
  if (previous.length > 0) sections.push(`## Previous iterations\n${previous.join('\n\n')}`);

  if (conversation.userNotes.trim() !== '') sections.push(`## User notes\n${conversation.userNotes.trim()}`);
  if (conversation.rejectedIdeas.trim() !== '') {
    sections.push(`## Rejected ideas (do not repeat)\n${conversation.rejectedIdeas.trim()}`);
  }
  sections.push(`## User input\n${input.userInput.trim() || DEFAULT_USER_INPUT}`);

  return { finalPrompt: sections.join('\n\n'), stepLabels: Object.fromEntries(resolved), unresolvedLabels };
}

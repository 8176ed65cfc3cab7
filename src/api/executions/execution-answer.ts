import type { z } from 'zod';
import type { StepResult, StepRun } from '../../domain/execution/types';
import {
  executionAnswer,
  stepResultAnswer,
  stepRunAnswer,
  stepRunSummaryAnswer,
} from '../http/answer-schemas';
import type { LoadedExecution } from './execution-commands';
import type { ExecutionView } from './execution-view';

/**
 * The execution a command just produced, as GET /api/executions/:id would read it back, built from the
 * command's own state instead of a query. The read models are that state projected in the command's
 * transaction: the executions row holds every field but the results, and step_results holds the results,
 * which the view orders by step, time and place among the results of their run.
 */
export function answerOf({ state, version }: LoadedExecution): ExecutionView {
  return { ...state, results: inViewOrder(state.results), version };
}

/**
 * The results ordered as the view orders them: by step, by time, and by place among the results of their
 * run (a run's results, or one re-run's reused ones, share the run id and the time they were recorded). Each
 * time is read once; results already in that order (most executions') are given back as they are.
 */
function inViewOrder(results: StepResult[]): StepResult[] {
  const placeInRun = new Map<string, number>();
  const keys = results.map((result, index) => {
    const run = `${result.runId} ${result.createdAt}`;
    const place = placeInRun.get(run) ?? 0;
    placeInRun.set(run, place + 1);
    return { index, stepOrder: result.stepOrder, at: Date.parse(result.createdAt), place };
  });
  const before = (a: (typeof keys)[number], b: (typeof keys)[number]) =>
    a.stepOrder - b.stepOrder || a.at - b.at || a.place - b.place;
  if (keys.every((key, i) => i === 0 || before(keys[i - 1]!, key) <= 0)) return results;
  return keys.toSorted(before).map((key) => results[key.index]!);
}

/**
 * A result's and a run's JSON as the answer's schema serialises them, made once per object: a state's results
 * and runs are never changed in place (evolve makes a new object for a changed one), so an execution answered
 * again, by a command on its kept state, serialises only what is new in it.
 */
const resultTexts = new WeakMap<StepResult, string>();
const runTexts = new WeakMap<StepRun, string>();

function textOf<T extends object>(texts: WeakMap<T, string>, schema: z.ZodType, item: T): string {
  let text = texts.get(item);
  if (text === undefined) {
    text = JSON.stringify(schema.parse(item));
    texts.set(item, text);
  }
  return text;
}

const LISTS = '"results":[],"runs":[]';

/**
 * The JSON of `{execution, results}` that a step run answers, as the route's schema would serialise it: the
 * execution's fields through executionAnswer, its results and runs each through its own schema, the latter
 * made once per object (see resultTexts), so the answer of a command on a long execution kept by this process
 * costs a join of texts, not a serialisation of every result.
 */
export function stepRunAnswerText(execution: LoadedExecution, results: StepResult[]): string {
  const view = answerOf(execution);
  // The execution without its two long lists, which come next to each other in the schema's order.
  const head = JSON.stringify(executionAnswer.parse({ ...view, results: [], runs: [] }));
  const lists = `"results":[${joined(resultTexts, stepResultAnswer, view.results)}],"runs":[${joined(runTexts, stepRunAnswer, view.runs)}]`;
  return `{"execution":${filledIn(head, LISTS, lists)},"results":[${joined(resultTexts, stepResultAnswer, results)}]}`;
}

/**
 * The JSON of the short answer (`Prefer: return=minimal`, stepRunSummaryAnswer): the run's results and the
 * execution's id, version, status and current step. Its size does not grow with the execution.
 */
export function stepRunSummaryText({ state, version }: LoadedExecution, results: StepResult[]): string {
  const head = JSON.stringify(
    stepRunSummaryAnswer.parse({
      executionId: state.id,
      version,
      status: state.status,
      currentStep: state.currentStep,
      results: [],
    }),
  );
  return filledIn(head, '"results":[]', `"results":[${joined(resultTexts, stepResultAnswer, results)}]`);
}

/** The JSON text with its one empty `list` (as serialised) replaced by the filled one. */
function filledIn(json: string, list: string, filled: string): string {
  const at = json.indexOf(list);
  if (at < 0) throw new Error(`The answer has no ${list} to fill in`);
  return `${json.slice(0, at)}${filled}${json.slice(at + list.length)}`;
}

const joined = <T extends object>(texts: WeakMap<T, string>, schema: z.ZodType, items: T[]) =>
  items.map((item) => textOf(texts, schema, item)).join(',');

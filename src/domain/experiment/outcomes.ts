import type { ExecutionState } from '../execution/types';
import { type CodeScorerDefinition, scoreOutput } from './code-scorers';
import type { RunOutcome, StepOutcome } from './compare';
import { lastStepOf } from './config';
import type { ExperimentEvent, ExperimentState, RunState } from './events';
import { scoreCounts } from './queries';
import {
  addedJudgeUsage,
  type JudgeUsage,
  NO_JUDGE_USAGE,
  type Score,
  type ScorerDefinition,
} from './scorer-definitions';

/**
 * A step's output in a run, as scorers and the compare grid read it: the text of its approved results (a
 * model's pick of a choice aside), else of the results of its last run that made any, in their order, each
 * set apart by a blank line. null: the step has no result (it failed, or was not reached).
 */
export function stepOutputOf(execution: ExecutionState, stepId: string): string | null {
  const own = execution.results.filter((r) => r.stepId === stepId && r.choiceIndex === null);
  const approved = own.filter((r) => r.approved);
  if (approved.length > 0) return approved.map((r) => r.result).join('\n\n');
  const last = own.at(-1);
  if (!last) return null;
  return own
    .filter((r) => r.runId === last.runId)
    .map((r) => r.result)
    .join('\n\n');
}

/** The step a scorer reads: its own, else the flow version's last step. */
export function scoredStepOf(
  definition: Pick<ScorerDefinition, 'stepId'>,
  steps: readonly { id: string; order: number }[],
): string | null {
  return definition.stepId ?? lastStepOf(steps)?.id ?? null;
}

/** One dataset item as a scorer reads it: its input and expected text of each step. */
export interface ItemTexts {
  inputs: Record<string, string>;
  expected: Record<string, string>;
}

/**
 * The code scorers' scores of one run's execution: each scorer on its step's output (a step with no output
 * scores nothing; an `equals` or `similarity` without the item's expected text neither).
 */
export function codeScoresOf(args: {
  scorers: readonly ScorerDefinition[];
  steps: readonly { id: string; order: number }[];
  execution: ExecutionState;
  item: ItemTexts | undefined;
}): Score[] {
  const { execution, item } = args;
  return args.scorers.flatMap((definition) => {
    if (definition.type === 'judge') return [];
    const stepId = scoredStepOf(definition, args.steps);
    if (stepId === null) return [];
    const output = stepOutputOf(execution, stepId);
    if (output === null) return [];
    const scored = scoreOutput(definition as CodeScorerDefinition, {
      output,
      expected: item?.expected[stepId] ?? null,
    });
    if (!scored) return [];
    return [
      {
        target: 'step' as const,
        executionId: execution.id,
        stepId,
        ...scored,
        source: 'code' as const,
        by: definition.type,
      },
    ];
  });
}

/**
 * The scores that count, from the experiment's stream: those of a scoring round not scored again since
 * (scoreCounts), the last one recorded of one name, execution, step and giver standing; by execution.
 */
export function countingScores(
  state: Pick<ExperimentState, 'rescoredIn'>,
  events: readonly ExperimentEvent[],
): Map<string, Score[]> {
  const standing = new Map<string, Score>();
  for (const event of events) {
    if (event.type !== 'ScoresRecorded') continue;
    for (const score of event.data.scores) {
      if (!scoreCounts(state, event.data.round, score)) continue;
      standing.set(JSON.stringify([score.executionId, score.stepId, score.name, score.by]), score);
    }
  }
  const byExecution = new Map<string, Score[]>();
  for (const score of standing.values()) {
    const scores = byExecution.get(score.executionId);
    if (scores) scores.push(score);
    else byExecution.set(score.executionId, [score]);
  }
  return byExecution;
}

/** What every judge's calls took, over the experiment's stream (all rounds: each call was made and paid). */
export function judgeUsageOf(events: readonly ExperimentEvent[]): JudgeUsage {
  return events.reduce(
    (sum, event) =>
      event.type === 'ScoresRecorded' && event.data.judgeUsage
        ? addedJudgeUsage(sum, event.data.judgeUsage)
        : sum,
    NO_JUDGE_USAGE,
  );
}

/** What a step's model calls took in one execution, summed over its runs. */
export interface StepUsage {
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
}

/**
 * One run as the compare view reads it: its execution's status and, for each step of the flow version, its
 * output, whether it was reused from the baseline, and what its calls took. A run never started (a stopped
 * experiment's) has no execution: every step missing.
 */
export function runOutcomeOf(args: {
  run: RunState;
  stepIds: readonly string[];
  execution: ExecutionState | null;
  usage: ReadonlyMap<string, StepUsage>;
  scores: readonly Score[];
}): RunOutcome {
  const { run, execution } = args;
  const steps: StepOutcome[] = args.stepIds.map((stepId) => {
    const used = args.usage.get(stepId);
    const output = execution ? stepOutputOf(execution, stepId) : null;
    const reused =
      execution?.results.some((r) => r.stepId === stepId && r.origin !== undefined) === true &&
      !execution.results.some((r) => r.stepId === stepId && r.origin === undefined);
    return {
      stepId,
      output,
      reused,
      inputTokens: used?.inputTokens ?? 0,
      outputTokens: used?.outputTokens ?? 0,
      durationMs: used?.durationMs ?? 0,
    };
  });
  return {
    itemId: run.itemId,
    repetition: run.repetition,
    executionId: run.executionId ?? '',
    status: execution ? execution.status : run.status,
    steps,
    scores: [...args.scores],
  };
}

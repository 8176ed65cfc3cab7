import type { StepSnapshot } from '../flow';
import type { DatasetItemRef, ExperimentConfig } from './config';
import type { RunOutcome, StopReason } from './events';
import type { BaselineFacts } from './plan';
import type { JudgeUsage, Score } from './scorer-definitions';

/**
 * Commands of an experiment's stream (`experiment-<experimentId>`). Who may give one is the API's access
 * rule; the rules here are the experiment's own: it is fixed once started, its runs start once each (again
 * only after an interruption, or to go on once the people they waited for decided), never more in flight
 * than its concurrency and never after a stop, it completes when its last run finishes, and it scores only
 * its own executions.
 */
export type ExperimentCommand =
  | {
      /**
       * `steps`: the flow version's steps; `items`: the dataset's items at `datasetVersion` (the version the
       * request named, else the current one); `baseline`: what the experiment `baselineId` names, read by the
       * caller (null when there is none); `changedItemIds`: items whose content differs between the baseline's
       * dataset version and this one; `experimentsOfFlow`: the flow's experiments already;
       * `runningOfUser`: the experiments the one who starts it has running (neither completed nor stopped).
       */
      type: 'StartExperiment';
      data: {
        experimentId: string;
        flowId: string;
        flowVersion: number;
        workspaceId: string | null;
        datasetId: string;
        datasetVersion: number;
        config: ExperimentConfig;
        steps: StepSnapshot[];
        items: DatasetItemRef[];
        baseline: (BaselineFacts & { ended: boolean }) | null;
        changedItemIds?: string[];
        experimentsOfFlow: number;
        runningOfUser: number;
      };
    }
  | {
      /**
       * A run begins as the execution `executionId` (for an interrupted run, a new one or the one it had; for
       * a ready run, the one it had), taking the steps before `reuseBefore` from `reusedFrom`, the run's
       * baseline execution, when given.
       */
      type: 'StartRun';
      data: { runKey: string; executionId: string; reusedFrom?: string | undefined; instanceId: number };
    }
  | { type: 'FinishRun'; data: { runKey: string; executionId: string; outcome: RunOutcome } }
  /** The run's execution waits for people: it leaves its place in flight. */
  | { type: 'SetRunWaiting'; data: { runKey: string; executionId: string } }
  /** The people a waiting run's execution waited for decided: it is to go on (StartRun on its execution). */
  | { type: 'SetRunReady'; data: { runKey: string; executionId: string } }
  /** The process driving the run died (its instance is gone: runsOfGoneInstances). */
  | { type: 'InterruptRun'; data: { runKey: string; executionId: string } }
  /** `round`: the scoring round the scores were made in (the state's `round` when scoring began). */
  /** `judgeUsage`: what the judges' calls that made these scores took, when any did. */
  | { type: 'RecordScores'; data: { scores: Score[]; round: number; judgeUsage?: JudgeUsage | undefined } }
  /** "Score again": the scorers named (all the experiment's when none) score every stored output again. */
  | { type: 'ScoreAgain'; data: { scorerNames?: string[] | undefined } }
  | { type: 'StopExperiment'; data: Record<string, never> }
  /**
   * The server ends an experiment that cannot go on (sent by the runner, never by a route): it stops for
   * `reason`, and every open run finishes as stopped, since nobody can drive it any more. Idempotent.
   */
  | { type: 'EndExperiment'; data: { reason: StopReason } }
  | { type: 'PromoteBaseline'; data: Record<string, never> };

export interface ExperimentContext {
  /** ISO time of the command. */
  now: string;
  /** Who gives the command (for a run's or a scorer's command, the one who started the experiment). */
  userId: string;
}

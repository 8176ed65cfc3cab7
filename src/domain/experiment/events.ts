import type { ExperimentConfig } from './config';
import type { PlannedRun } from './plan';
import type { JudgeUsage, Score } from './scorer-definitions';

/** The stream of an experiment: `experiment-<experimentId>`. */
export const EXPERIMENT_STREAM_PREFIX = 'experiment-';
export const experimentStreamId = (experimentId: string) => `${EXPERIMENT_STREAM_PREFIX}${experimentId}`;

/** How a run's execution ended, as the experiment counts it. */
export const RUN_OUTCOMES = ['completed', 'failed', 'stopped'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/**
 * Why the server stopped an experiment nobody asked to stop. `starterCannotRun`: the one it runs as (who
 * started it) may no longer run its flow (gone from its workspace, or their role no longer lets them).
 */
export const STOP_REASONS = ['starterCannotRun'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/**
 * The events of an experiment's stream. The experiment is fixed by its first event (the flow version, the
 * dataset version, the settings and every run); the rest is the course of its runs, each an ordinary
 * execution on its own stream (`execution-<executionId>`), its scores, and its promotion to baseline.
 */
export type ExperimentEvent =
  | {
      type: 'ExperimentStarted';
      data: {
        experimentId: string;
        flowId: string;
        flowVersion: number;
        /** The workspace its flow is in (its members' roles decide who may see it); null: its owner's own. */
        workspaceId: string | null;
        datasetId: string;
        datasetVersion: number;
        config: ExperimentConfig;
        /** The flow version's step ids in execution order: what scores and reuse may name. */
        stepIds: string[];
        /** Every run, in the order they start. */
        runs: PlannedRun[];
        /** The experiment it is compared with; null: none. */
        baselineId: string | null;
        /**
         * The first step its runs run: those before it are the baseline run's (a run naming a baseline
         * execution). null: every run runs every step.
         */
        reuseBefore: string | null;
        startedBy: string;
        at: string;
      };
    }
  | {
      /**
       * A run began as the execution `executionId`: a new one, or, for an interrupted run, the one it had
       * (resumed). `reusedFrom`: the baseline execution whose results of the steps before `reuseBefore` the
       * execution took (its ResultsReused event).
       */
      type: 'ExperimentRunStarted';
      data: {
        runKey: string;
        executionId: string;
        reusedFrom?: string;
        /** The server instance driving it. */
        instanceId: number;
        at: string;
      };
    }
  | {
      type: 'ExperimentRunFinished';
      data: { runKey: string; executionId: string; outcome: RunOutcome; at: string };
    }
  | {
      /**
       * The run's execution waits for people (a `human` step's reviewers, or a judge that did not pass): no
       * model work is left to it until they decide, so it no longer counts against the concurrency.
       */
      type: 'ExperimentRunWaiting';
      data: { runKey: string; executionId: string; at: string };
    }
  | {
      /** The people it waited for decided: it goes on (started again on its execution) once there is room. */
      type: 'ExperimentRunReady';
      data: { runKey: string; executionId: string; at: string };
    }
  | {
      /** The process driving the run died before its execution ended: it may be started again. */
      type: 'ExperimentRunInterrupted';
      data: { runKey: string; executionId: string; at: string };
    }
  | {
      /**
       * Scores of the experiment's executions, in the scoring round current when they were made. A score of a
       * scorer that a later round scores again no longer counts (see ScoringRoundStarted, scoreCounts); of
       * the scores that count, the last one recorded of one name, execution, step and giver (`by`) stands.
       */
      type: 'ScoresRecorded';
      /** `judgeUsage`: what the judges' calls that made them took (none: no judge was asked). */
      data: { scores: Score[]; round: number; judgeUsage?: JudgeUsage; by: string; at: string };
    }
  | {
      /**
       * "Score again": the scorers named score every run's stored outputs again, in round `round`; their
       * scores of earlier rounds no longer count. People's scores and review scores are never scored again.
       */
      type: 'ScoringRoundStarted';
      data: { round: number; scorerNames: string[]; by: string; at: string };
    }
  | {
      /**
       * Asked to stop: no run starts any more; the runs in flight are stopped and finish. With a `reason`,
       * the server stopped it (EndExperiment), its open runs finished as stopped with it.
       */
      type: 'ExperimentStopped';
      data: { by: string; at: string; reason?: StopReason };
    }
  /** Every run finished (recorded with the last one's finish). */
  | { type: 'ExperimentCompleted'; data: { at: string } }
  | {
      /**
       * The experiment is its flow's baseline from now on: the one a new experiment of the flow is compared
       * with, until another is promoted. Recorded on the experiment's stream, so its own rule (only once all
       * its runs finished) is decided on it; the flow's baseline is the one promoted last (by the position of
       * this event in the store), which a read model keeps per flow.
       */
      type: 'BaselinePromoted';
      data: { experimentId: string; flowId: string; flowVersion: number; by: string; at: string };
    };

export type ExperimentEventType = ExperimentEvent['type'];

/**
 * A run's course: `planned` (not started), `running` (its execution in flight, counted against the
 * concurrency), `waiting` (for people to decide its execution's reviews), `ready` (they decided: to go on
 * when there is room), `interrupted` (its process died; it may start again), `finished` (with its outcome).
 * Only `running` runs count against the concurrency: runs waiting for people do not hold up the others.
 */
export type RunStatus = 'planned' | 'running' | 'waiting' | 'ready' | 'interrupted' | 'finished';

export interface RunState extends PlannedRun {
  status: RunStatus;
  /** Its execution: the last one it started; null until it starts. */
  executionId: string | null;
  /** The executions it had before it was started again as another (after an interruption): none of them is scored. */
  replaced: string[];
  reusedFrom: string | null;
  outcome: RunOutcome | null;
  instanceId: number | null;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface ExperimentState {
  /** null: no experiment on this stream yet. */
  experimentId: string | null;
  flowId: string;
  flowVersion: number;
  workspaceId: string | null;
  datasetId: string;
  datasetVersion: number;
  /** null until it starts; never changed after. */
  config: ExperimentConfig | null;
  stepIds: string[];
  baselineId: string | null;
  reuseBefore: string | null;
  startedBy: string;
  startedAt: string | null;
  /** Every run, in the order they start. */
  runs: RunState[];
  /** Runs in flight now (`running`). */
  running: number;
  /** Runs finished, whatever their outcome. */
  finished: number;
  /** `reason`: why the server stopped it; none when a person asked to. */
  stopped: { by: string; at: string; reason?: StopReason } | null;
  completedAt: string | null;
  /** The current scoring round (0: the first scoring), and the round each scorer was last scored again in. */
  round: number;
  rescoredIn: Record<string, number>;
  /** When it was last promoted to baseline; null: never. */
  promotedAt: string | null;
  updatedAt: string | null;
}

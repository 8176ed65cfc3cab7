import type { Sql } from 'postgres';
import type { ExecutionState } from '../../domain/execution/types';
import { type CrashSweepFacts, INTERRUPTED, isInterrupted } from '../../domain/interrupted-runs';
import type { RetryPolicy } from '../commands/retry-policy';
import type { ExecutionCommands, RunRegistry } from '../executions';
import type { MasterModeService } from '../master-mode';
import { databaseNow } from './clock';
import type { Config } from './config';
import { LOOK_AGAIN_MS, type ServerInstance } from './server-instance';

/**
 * The longest a live process takes to record a run's outcome once its model call has ended (at the latest
 * by the model timeout): the command handler's retries, and a minute's slack for a machine under load.
 */
const recordingOutcomeMs = (retry: Pick<RetryPolicy, 'outcomeRetryMs'>) => retry.outcomeRetryMs + 60_000;

interface UnfinishedStepRuns {
  id: string;
  userId: string;
  runs: ExecutionState['runs'];
}

interface UnfinishedMasterWork {
  sessionId: string;
  userId: string;
  startedAt: Date;
  instanceId: number | null;
}

const waitToLookAgain = () => new Promise<void>((resolve) => setTimeout(resolve, LOOK_AGAIN_MS));

/**
 * What a crash leaves unfinished, finished by whichever server process looks first: step runs and master
 * mode row runs whose server instance has died are failed as interrupted at once, those of this process it
 * is not making or that name no instance once older than the model timeout, and their Execute All is
 * closed; runs of another live instance are its own to end (`isInterrupted` holds the rule). Each is a
 * command through the command handler, so two processes sweeping at once fail a run once.
 */
export class CrashSweep {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: {
      sql: Sql;
      config: Config;
      executions: ExecutionCommands;
      masterMode: MasterModeService;
      runs: RunRegistry;
      instance: ServerInstance;
      /** The command handler's: how long it may still be recording an outcome. */
      retry: Pick<RetryPolicy, 'outcomeRetryMs'>;
    },
  ) {}

  /**
   * Sweeps once; answers how many runs and Execute Alls it ended. An instance whose lock is free is taken for
   * dead only if it is still free when looked at again, after `lookAgainAfter` (LOOK_AGAIN_MS by default): a
   * live process whose connection was lost (PostgreSQL restarted) takes its lock back well within that.
   */
  async run(
    olderThanMs = this.deps.config.modelTimeoutMs,
    { lookAgainAfter = waitToLookAgain }: { lookAgainAfter?: () => Promise<void> } = {},
  ): Promise<number> {
    const { sql, instance } = this.deps;
    // This process's own lock first: were it lost, the others would take its runs for a dead process's.
    await instance.keepHeld();
    // The database's clock, never this process's: the runs' starts are judged by every process alike, and a
    // process whose clock runs days ahead must not take another's live runs for abandoned.
    const now = await databaseNow(sql);
    const startedBefore = new Date(now - olderThanMs).toISOString();
    const abandonedBefore = new Date(now - olderThanMs - recordingOutcomeMs(this.deps.retry)).toISOString();
    const [steps, master] = await Promise.all([
      sql<UnfinishedStepRuns[]>`
        SELECT id, user_id, runs FROM executions WHERE runs @> '[{"status":"running"}]'::jsonb`,
      sql<UnfinishedMasterWork[]>`
        SELECT session_id, user_id, requested_at AS started_at, instance_id
        FROM master_mode_runs WHERE success IS NULL
        UNION ALL
        SELECT x.session_id, s.user_id, x.started_at, x.instance_id FROM master_mode_execute_alls x
        JOIN master_mode_sessions s ON s.id = x.session_id
        WHERE x.ended_at IS NULL`,
    ]);
    const named = [
      ...steps.flatMap((row) => row.runs.filter((r) => r.status === 'running').map((r) => r.instanceId)),
      ...master.map((work) => work.instanceId),
    ].filter((id): id is number => typeof id === 'number' && id !== instance.id);
    const freeNow = await instance.gone(named);
    if (freeNow.length > 0) await lookAgainAfter();
    const facts: CrashSweepFacts = {
      startedBefore,
      abandonedBefore,
      thisInstance: instance.id,
      goneInstances: freeNow.length > 0 ? await instance.gone(freeNow) : [],
    };
    const [runs, sessions] = await Promise.all([
      this.failSteps(steps, facts),
      this.failMasterRuns(master, facts),
    ]);
    return runs + sessions;
  }

  start(intervalMs = 30_000) {
    this.timer = setInterval(() => void this.run().catch(() => {}), intervalMs);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
  }

  private async failSteps(rows: UnfinishedStepRuns[], facts: CrashSweepFacts): Promise<number> {
    const { executions, runs } = this.deps;
    let failed = 0;
    for (const row of rows) {
      for (const run of row.runs) {
        if (run.status !== 'running' || !isInterrupted(run, runs.isRunning(row.id, run.runId), facts))
          continue;
        await executions
          .handle(row.id, row.userId, {
            type: 'FailStepRun',
            data: { runId: run.runId, message: INTERRUPTED, retryable: true },
          })
          .then(() => failed++)
          .catch(() => {});
      }
    }
    return failed;
  }

  /** Each session with something that may be interrupted is judged by its decider, on its stream. */
  private async failMasterRuns(work: UnfinishedMasterWork[], facts: CrashSweepFacts): Promise<number> {
    const { masterMode } = this.deps;
    const sessions = new Map<string, string>();
    for (const { sessionId, userId, startedAt, instanceId } of work) {
      if (isInterrupted({ startedAt: startedAt.toISOString(), instanceId }, false, facts))
        sessions.set(sessionId, userId);
    }
    let ended = 0;
    for (const [sessionId, userId] of sessions) {
      ended += await masterMode.failInterrupted(sessionId, userId, facts).catch(() => 0);
    }
    return ended;
  }
}

import type { Sql } from 'postgres';
import type { ExecutionState } from '../domain/execution/types';
import type { Config } from './config';
import type { ExecutionCommands } from './executions/execution-commands';
import type { RunRegistry } from './executions/run-registry';
import type { MasterModeService } from './master-mode/master-mode-service';

/**
 * What a crash leaves unfinished, finished by whichever server process looks first: step runs and master
 * mode row runs older than the model timeout are failed as interrupted (runs of this process are left
 * alone), and an Execute All gone quiet as long is closed. Each is a command through the command handler,
 * so two processes sweeping at once fail a run once.
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
    },
  ) {}

  /** Sweeps once; answers how many runs and Execute Alls it ended. */
  async run(olderThanMs = this.deps.config.modelTimeoutMs): Promise<number> {
    const startedBefore = new Date(Date.now() - olderThanMs).toISOString();
    const [runs, sessions] = await Promise.all([
      this.failSteps(startedBefore),
      this.failMasterRuns(startedBefore),
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

  private async failSteps(startedBefore: string): Promise<number> {
    const { sql, executions, runs } = this.deps;
    const rows = await sql<{ id: string; userId: string; runs: ExecutionState['runs'] }[]>`
      SELECT id, user_id, runs FROM executions WHERE runs @> '[{"status":"running"}]'::jsonb`;
    let failed = 0;
    for (const row of rows) {
      for (const run of row.runs) {
        if (run.status !== 'running' || run.startedAt >= startedBefore || runs.isRunning(row.id, run.runId))
          continue;
        await executions
          .handle(row.id, row.userId, {
            type: 'FailStepRun',
            data: { runId: run.runId, message: 'interrupted', retryable: true },
          })
          .then(() => failed++)
          .catch(() => {});
      }
    }
    return failed;
  }

  private async failMasterRuns(startedBefore: string): Promise<number> {
    const { sql, masterMode } = this.deps;
    const sessions = await sql<{ sessionId: string; userId: string }[]>`
      SELECT r.session_id, r.user_id FROM master_mode_runs r
      WHERE r.success IS NULL AND r.requested_at < ${startedBefore}
      UNION
      SELECT x.session_id, s.user_id FROM master_mode_execute_alls x
      JOIN master_mode_sessions s ON s.id = x.session_id
      WHERE x.ended_at IS NULL AND x.started_at < ${startedBefore}`;
    let ended = 0;
    for (const { sessionId, userId } of sessions) {
      ended += await masterMode.failInterrupted(sessionId, userId, startedBefore).catch(() => 0);
    }
    return ended;
  }
}

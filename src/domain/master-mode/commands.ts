import type { CrashSweepFacts } from '../interrupted-runs';
import type { ExecuteAllOutcome, MasterEvent } from './events';

type RowRunStartedData = Extract<MasterEvent, { type: 'MasterRowRunStarted' }>['data'];
type SessionOpenedData = Extract<MasterEvent, { type: 'MasterSessionOpened' }>['data'];

/**
 * Commands of a master mode session's stream (`master-<sessionId>`). The rows themselves are plain
 * records; the stream decides what may run: one run of a row at a time, one Execute All at a time
 * (in every server process, as the stream is shared), and what a crash left unfinished.
 */
export type MasterCommand =
  | { type: 'OpenSession'; data: Omit<SessionOpenedData, 'at' | 'createdAt'> }
  | { type: 'DeleteSession'; data: Record<string, never> }
  | { type: 'StartRowRun'; data: Omit<RowRunStartedData, 'at' | 'instanceId'> & { instanceId: number } }
  | {
      type: 'CompleteRowRun';
      data: {
        runId: string;
        result: string;
        usage: { inputTokens: number; outputTokens: number } | null;
        durationMs: number;
        firstTokenMs: number | null;
      };
    }
  | { type: 'FailRowRun'; data: { runId: string; message: string; firstTokenMs?: number | null } }
  | { type: 'StartExecuteAll'; data: { runAllId: string; instanceId: number } }
  | { type: 'StopExecuteAll'; data: Record<string, never> }
  | { type: 'EndExecuteAll'; data: { runAllId: string; outcome: ExecuteAllOutcome; message: string | null } }
  | { type: 'ResetResults'; data: Record<string, never> }
  /**
   * The crash sweep: the runs a crash left unfinished are failed (never those in `alive`, which the sweeping
   * process is making itself), and so is their Execute All once no run of it is left.
   */
  | { type: 'FailInterrupted'; data: CrashSweepFacts & { alive: string[] } };

export interface MasterContext {
  /** ISO time of the command. */
  now: string;
}

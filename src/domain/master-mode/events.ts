import type { KeySource } from '../execution/types';
import type { MasterStepType } from './master-session';

/**
 * The events of a master mode session's stream (`master-<sessionId>`): every row run with what it was
 * given and what it answered, and the course of each Execute All. The rows themselves are plain
 * records; the stream is the audit of what ran.
 */
export type MasterEvent =
  | {
      type: 'MasterRowRunStarted';
      data: {
        runId: string;
        userId: string;
        sessionId: string;
        stepId: string;
        /** The row's number at the time (1 is shown as 001). */
        rowNumber: number;
        stepName: string;
        stepType: MasterStepType;
        systemPrompt: string;
        userInput: string;
        /** What was sent: the model prompt, the URL called, or the resolved input. */
        finalPrompt: string;
        /** Row number -> the result that replaced its `[[row-N]]`. */
        references: Record<string, string>;
        unresolvedReferences: number[];
        model: string | null;
        keySource: KeySource | null;
        /** The server instance making the run; absent from events recorded before it was kept. */
        instanceId?: number;
        at: string;
      };
    }
  | {
      type: 'MasterRowRunSucceeded';
      data: {
        runId: string;
        result: string;
        usage: { inputTokens: number; outputTokens: number } | null;
        durationMs: number;
        at: string;
      };
    }
  | { type: 'MasterRowRunFailed'; data: { runId: string; message: string; at: string } }
  | {
      type: 'MasterExecuteAllStarted';
      data: {
        runAllId: string;
        /** The server instance running the rows; absent from events recorded before it was kept. */
        instanceId?: number;
        at: string;
      };
    }
  | { type: 'MasterExecuteAllStopped'; data: { runAllId: string; at: string } }
  | {
      type: 'MasterExecuteAllEnded';
      data: { runAllId: string; outcome: ExecuteAllOutcome; message: string | null; at: string };
    }
  | { type: 'MasterResultsReset'; data: { at: string } };

export interface MasterState {
  /** Row runs started and not ended, by run id. */
  running: Record<
    string,
    { stepId: string; rowNumber: number; stepName: string; startedAt: string; instanceId?: number }
  >;
  /** The Execute All started last and not ended yet. */
  executeAll: { runAllId: string; startedAt: string; stopRequested: boolean; instanceId?: number } | null;
  /** When the stream last changed: an Execute All quiet for longer than a model call can take is dead. */
  lastEventAt: string | null;
}

export type ExecuteAllOutcome = 'completed' | 'stopped' | 'failed';

export const MASTER_STREAM_PREFIX = 'master-';
export const masterStreamId = (sessionId: string) => `${MASTER_STREAM_PREFIX}${sessionId}`;

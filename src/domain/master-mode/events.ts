import type { KeySource } from '../execution/types';
import type { ExecuteAllOutcome, MasterStepType } from './master-session';

export type { ExecuteAllOutcome };

/**
 * The events of a master mode session's stream (`master-<sessionId>`): who opened the session (its owner,
 * so access is decided on the stream), every row run with what it was given and what it answered, the
 * course of each Execute All, and the session's deletion. The rows themselves are plain records; the
 * stream is the audit of what ran.
 */
export type MasterEvent =
  | {
      type: 'MasterSessionOpened';
      data: {
        sessionId: string;
        ownerId: string;
        flowId: string | null;
        sessionName: string;
        /** When the session was created (sessions created before this event get it later, with their time). */
        createdAt: string;
        at: string;
      };
    }
  | { type: 'MasterSessionDeleted'; data: { at: string } }
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
        /** The provider of the model that answers (an ai row); absent from events recorded before it was kept. */
        provider?: string | null;
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
        /** From sending the model its request to the first text of the answer (null: no model, or no text). */
        firstTokenMs?: number | null;
        at: string;
      };
    }
  | {
      type: 'MasterRowRunFailed';
      data: { runId: string; message: string; firstTokenMs?: number | null; at: string };
    }
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
  /**
   * Who the session belongs to: from its opening event, or, on a stream recorded before sessions were
   * opened on it (a session deleted before then), from its first run. null: no such session.
   */
  ownerId: string | null;
  /** Deleted: nothing new runs on it (what ran stays readable to the system). */
  deleted: boolean;
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

export const MASTER_STREAM_PREFIX = 'master-';
export const masterStreamId = (sessionId: string) => `${MASTER_STREAM_PREFIX}${sessionId}`;

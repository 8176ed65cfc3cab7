import { conflict } from '../errors';
import { type CrashSweepFacts, INTERRUPTED, isInterrupted } from '../interrupted-runs';
import type { ExecuteAllOutcome, MasterEvent } from './events';
import { storableText } from '../storable-text';
import { rowLabel } from './row-run';

type RowRunStartedData = Extract<MasterEvent, { type: 'MasterRowRunStarted' }>['data'];

/**
 * Commands of a master mode session's stream (`master-<sessionId>`). The rows themselves are plain
 * records; the stream decides what may run: one run of a row at a time, one Execute All at a time
 * (in every server process, as the stream is shared), and what a crash left unfinished.
 */
export type MasterCommand =
  | { type: 'StartRowRun'; data: Omit<RowRunStartedData, 'at' | 'instanceId'> & { instanceId: number } }
  | {
      type: 'CompleteRowRun';
      data: {
        runId: string;
        result: string;
        usage: { inputTokens: number; outputTokens: number } | null;
        durationMs: number;
      };
    }
  | { type: 'FailRowRun'; data: { runId: string; message: string } }
  | { type: 'StartExecuteAll'; data: { runAllId: string; instanceId: number } }
  | { type: 'StopExecuteAll'; data: Record<string, never> }
  | { type: 'EndExecuteAll'; data: { runAllId: string; outcome: ExecuteAllOutcome; message: string | null } }
  | { type: 'ResetResults'; data: Record<string, never> }
  /**
   * The crash sweep: the runs a crash left unfinished are failed (never those in `alive`, which the sweeping
   * process is making itself), and so is their Execute All once no run of it is left.
   */
  | { type: 'FailInterrupted'; data: CrashSweepFacts & { alive: string[] } };

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

export interface MasterContext {
  /** ISO time of the command. */
  now: string;
}

export const EXECUTE_ALL_RUNNING = 'Execute All đang chạy';

export const initialMasterState = (): MasterState => ({ running: {}, executeAll: null, lastEventAt: null });

export function evolveMaster(state: MasterState, event: MasterEvent): MasterState {
  const next = { ...state, lastEventAt: event.data.at };
  switch (event.type) {
    case 'MasterRowRunStarted': {
      const { runId, stepId, rowNumber, stepName, instanceId, at } = event.data;
      const run = {
        stepId,
        rowNumber,
        stepName,
        startedAt: at,
        ...(instanceId === undefined ? {} : { instanceId }),
      };
      return { ...next, running: { ...state.running, [runId]: run } };
    }
    case 'MasterRowRunSucceeded':
    case 'MasterRowRunFailed': {
      const { [event.data.runId]: _ended, ...running } = state.running;
      return { ...next, running };
    }
    case 'MasterExecuteAllStarted': {
      const { runAllId, instanceId, at } = event.data;
      return {
        ...next,
        executeAll: {
          runAllId,
          startedAt: at,
          stopRequested: false,
          ...(instanceId === undefined ? {} : { instanceId }),
        },
      };
    }
    case 'MasterExecuteAllStopped':
      return state.executeAll?.runAllId === event.data.runAllId
        ? { ...next, executeAll: { ...state.executeAll, stopRequested: true } }
        : next;
    case 'MasterExecuteAllEnded':
      return state.executeAll?.runAllId === event.data.runAllId ? { ...next, executeAll: null } : next;
    case 'MasterResultsReset':
      return next;
    default: {
      const unknown: never = event;
      throw new Error(`Unknown master mode event ${(unknown as { type: string }).type}`);
    }
  }
}

export function decideMaster(
  command: MasterCommand,
  state: MasterState,
  { now }: MasterContext,
): MasterEvent[] {
  switch (command.type) {
    case 'StartRowRun': {
      const busy = Object.values(state.running).find((run) => run.stepId === command.data.stepId);
      if (busy) throw conflict(`${rowLabel(busy.rowNumber, busy)} đang chạy`);
      return [{ type: 'MasterRowRunStarted', data: { ...command.data, at: now } }];
    }
    case 'CompleteRowRun': {
      if (!state.running[command.data.runId]) throw conflict('Lần chạy của dòng này đã kết thúc');
      // The model's or the API's text: what it wrote must not keep it from being stored.
      return [
        {
          type: 'MasterRowRunSucceeded',
          data: { ...command.data, result: storableText(command.data.result), at: now },
        },
      ];
    }
    case 'FailRowRun':
      // Already ended (the crash sweep got there first, say): the first outcome stands.
      if (!state.running[command.data.runId]) return [];
      return [
        {
          type: 'MasterRowRunFailed',
          data: { ...command.data, message: storableText(command.data.message), at: now },
        },
      ];
    case 'StartExecuteAll':
      if (state.executeAll) throw conflict(EXECUTE_ALL_RUNNING);
      return [{ type: 'MasterExecuteAllStarted', data: { ...command.data, at: now } }];
    case 'StopExecuteAll':
      return stopRequested(state, now);
    case 'EndExecuteAll':
      if (state.executeAll?.runAllId !== command.data.runAllId) return [];
      return [{ type: 'MasterExecuteAllEnded', data: { ...command.data, at: now } }];
    case 'ResetResults':
      return [...stopRequested(state, now), { type: 'MasterResultsReset', data: { at: now } }];
    case 'FailInterrupted': {
      const { alive, ...facts } = command.data;
      const dead = Object.entries(state.running).filter(([runId, run]) =>
        isInterrupted(run, alive.includes(runId), facts),
      );
      const failed: MasterEvent[] = dead.map(([runId]) => ({
        type: 'MasterRowRunFailed',
        data: { runId, message: INTERRUPTED, at: now },
      }));
      const stillRunning = Object.keys(state.running).length > dead.length;
      const { executeAll } = state;
      // Between its rows an Execute All has no run: it counts as started when the stream last changed, as
      // one that a live process runs is never quiet for as long as a model call may take.
      const quietSince = { startedAt: state.lastEventAt ?? '', instanceId: executeAll?.instanceId };
      if (executeAll && !stillRunning && isInterrupted(quietSince, false, facts)) {
        failed.push({
          type: 'MasterExecuteAllEnded',
          data: { runAllId: executeAll.runAllId, outcome: 'failed', message: INTERRUPTED, at: now },
        });
      }
      return failed;
    }
    default: {
      const unknown: never = command;
      throw new Error(`Unknown master mode command ${(unknown as { type: string }).type}`);
    }
  }
}

function stopRequested(state: MasterState, now: string): MasterEvent[] {
  if (!state.executeAll || state.executeAll.stopRequested) return [];
  return [{ type: 'MasterExecuteAllStopped', data: { runAllId: state.executeAll.runAllId, at: now } }];
}

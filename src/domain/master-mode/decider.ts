import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import { INTERRUPTED, isInterrupted } from '../interrupted-runs';
import { storableText } from '../storable-text';
import type { MasterCommand, MasterContext } from './commands';
import type { MasterEvent, MasterState } from './events';
import { rowLabel } from './row-run';

export const EXECUTE_ALL_RUNNING = 'Execute All đang chạy';
export const SESSION_NOT_FOUND = 'Không tìm thấy master mode session';

/** A master mode session's rules: what its stream lets run, and the events each command adds. */
export const decider: Decider<MasterState, MasterCommand, MasterEvent, MasterContext> = {
  initialState,
  evolve,
  decide,
};

function initialState(): MasterState {
  return { ownerId: null, deleted: false, running: {}, executeAll: null, lastEventAt: null };
}

function evolve(state: MasterState, event: MasterEvent): MasterState {
  const next = { ...state, lastEventAt: event.data.at };
  switch (event.type) {
    case 'MasterSessionOpened':
      return { ...next, ownerId: event.data.ownerId };
    case 'MasterSessionDeleted':
      return { ...next, deleted: true };
    case 'MasterRowRunStarted': {
      const { runId, userId, stepId, rowNumber, stepName, instanceId, at } = event.data;
      const run = {
        stepId,
        rowNumber,
        stepName,
        startedAt: at,
        ...(instanceId === undefined ? {} : { instanceId }),
      };
      return { ...next, ownerId: state.ownerId ?? userId, running: { ...state.running, [runId]: run } };
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

function decide(command: MasterCommand, state: MasterState, { now }: MasterContext): MasterEvent[] {
  // A deleted session starts nothing new; what it left running still ends.
  if (state.deleted && STARTS_WORK.has(command.type)) throw notFound(SESSION_NOT_FOUND);
  switch (command.type) {
    case 'OpenSession':
      if (state.ownerId !== null) throw conflict('Session master mode đã tồn tại');
      return [{ type: 'MasterSessionOpened', data: { ...command.data, createdAt: now, at: now } }];
    case 'DeleteSession':
      if (state.deleted) return [];
      return [...stopRequested(state, now), { type: 'MasterSessionDeleted', data: { at: now } }];
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

const STARTS_WORK = new Set<MasterCommand['type']>(['StartRowRun', 'StartExecuteAll', 'ResetResults']);

function stopRequested(state: MasterState, now: string): MasterEvent[] {
  if (!state.executeAll || state.executeAll.stopRequested) return [];
  return [{ type: 'MasterExecuteAllStopped', data: { runAllId: state.executeAll.runAllId, at: now } }];
}

import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import {
  decideMaster,
  EXECUTE_ALL_RUNNING,
  evolveMaster,
  initialMasterState,
  type MasterCommand,
  type MasterState,
} from './master-decider';
import type { MasterEvent } from './master-events';

const NOW = '2026-05-01T10:00:00.000Z';
const EARLIER = '2026-05-01T09:00:00.000Z';

function given(history: MasterEvent[]) {
  const state: MasterState = history.reduce(evolveMaster, initialMasterState());
  return {
    state,
    when(command: MasterCommand) {
      const run = () => decideMaster(command, state, { now: NOW });
      return {
        thenEmits: (expected: MasterEvent[]) => expect(run()).toEqual(expected),
        thenRefuses(kind: DomainError['kind'], message: string | RegExp) {
          expect(run).toThrow(DomainError);
          try {
            run();
          } catch (error) {
            expect((error as DomainError).kind).toBe(kind);
            expect((error as Error).message).toMatch(message);
          }
        },
      };
    },
  };
}

const startData = (runId: string, stepId: string, rowNumber = 1) => ({
  runId,
  userId: 'user-1',
  sessionId: 'session-1',
  stepId,
  rowNumber,
  stepName: `Step ${rowNumber}`,
  stepType: 'ai' as const,
  systemPrompt: 'Write',
  userInput: '',
  finalPrompt: 'Write',
  references: {},
  unresolvedReferences: [],
  model: 'offline',
  keySource: 'offline' as const,
});
const rowStarted = (runId: string, stepId: string, at = EARLIER): MasterEvent => ({
  type: 'MasterRowRunStarted',
  data: { ...startData(runId, stepId), at },
});
const rowSucceeded = (runId: string, at = EARLIER): MasterEvent => ({
  type: 'MasterRowRunSucceeded',
  data: { runId, result: 'done', usage: null, durationMs: 5, at },
});
const allStarted = (runAllId: string, at = EARLIER): MasterEvent => ({
  type: 'MasterExecuteAllStarted',
  data: { runAllId, at },
});
const allStopped = (runAllId: string, at = EARLIER): MasterEvent => ({
  type: 'MasterExecuteAllStopped',
  data: { runAllId, at },
});

describe('master mode decider', () => {
  describe('row runs', () => {
    it('starts a run of a row with what it was given', () => {
      given([])
        .when({ type: 'StartRowRun', data: startData('r1', 'row-a') })
        .thenEmits([{ type: 'MasterRowRunStarted', data: { ...startData('r1', 'row-a'), at: NOW } }]);
    });

    it('refuses a second run of a row while one is running, in any process', () => {
      given([rowStarted('r1', 'row-a')])
        .when({ type: 'StartRowRun', data: startData('r2', 'row-a') })
        .thenRefuses('conflict', 'Row 001 "Step 1" is already running');
    });

    it('runs another row, or the same row again once its run has ended', () => {
      const history = [rowStarted('r1', 'row-a'), rowSucceeded('r1')];
      given(history)
        .when({ type: 'StartRowRun', data: startData('r2', 'row-a') })
        .thenEmits([{ type: 'MasterRowRunStarted', data: { ...startData('r2', 'row-a'), at: NOW } }]);
      given([rowStarted('r1', 'row-a')])
        .when({ type: 'StartRowRun', data: startData('r2', 'row-b', 2) })
        .thenEmits([{ type: 'MasterRowRunStarted', data: { ...startData('r2', 'row-b', 2), at: NOW } }]);
    });

    it('records the answer of a running run, and refuses one for a run that has ended', () => {
      const complete: MasterCommand = {
        type: 'CompleteRowRun',
        data: { runId: 'r1', result: 'Hi', usage: { inputTokens: 1, outputTokens: 2 }, durationMs: 9 },
      };
      given([rowStarted('r1', 'row-a')])
        .when(complete)
        .thenEmits([{ type: 'MasterRowRunSucceeded', data: { ...complete.data, at: NOW } }]);
      given([rowStarted('r1', 'row-a'), rowSucceeded('r1')])
        .when(complete)
        .thenRefuses('conflict', /already ended/);
    });

    it('a failure of a run that has ended already changes nothing: the first outcome stands', () => {
      given([rowStarted('r1', 'row-a'), rowSucceeded('r1')])
        .when({ type: 'FailRowRun', data: { runId: 'r1', message: 'late' } })
        .thenEmits([]);
    });
  });

  describe('Execute All', () => {
    it('starts when none is running and refuses a second one at once', () => {
      given([])
        .when({ type: 'StartExecuteAll', data: { runAllId: 'a' } })
        .thenEmits([{ type: 'MasterExecuteAllStarted', data: { runAllId: 'a', at: NOW } }]);
      given([allStarted('a')])
        .when({ type: 'StartExecuteAll', data: { runAllId: 'b' } })
        .thenRefuses('conflict', EXECUTE_ALL_RUNNING);
    });

    it('stop is asked once, and is nothing when none is running', () => {
      given([allStarted('a')])
        .when({ type: 'StopExecuteAll', data: {} })
        .thenEmits([{ type: 'MasterExecuteAllStopped', data: { runAllId: 'a', at: NOW } }]);
      given([allStarted('a'), allStopped('a')])
        .when({ type: 'StopExecuteAll', data: {} })
        .thenEmits([]);
      given([]).when({ type: 'StopExecuteAll', data: {} }).thenEmits([]);
    });

    it('ends only the Execute All that is running; then another may start', () => {
      const end = (runAllId: string): MasterCommand => ({
        type: 'EndExecuteAll',
        data: { runAllId, outcome: 'completed', message: null },
      });
      given([allStarted('a')])
        .when(end('b'))
        .thenEmits([]);
      given([allStarted('a')])
        .when(end('a'))
        .thenEmits([
          {
            type: 'MasterExecuteAllEnded',
            data: { runAllId: 'a', outcome: 'completed', message: null, at: NOW },
          },
        ]);
      const ended: MasterEvent = {
        type: 'MasterExecuteAllEnded',
        data: { runAllId: 'a', outcome: 'stopped', message: null, at: EARLIER },
      };
      const { state } = given([allStarted('a'), allStopped('a'), ended]);
      expect(state.executeAll).toBeNull();
      given([allStarted('a'), ended])
        .when({ type: 'StartExecuteAll', data: { runAllId: 'b' } })
        .thenEmits([{ type: 'MasterExecuteAllStarted', data: { runAllId: 'b', at: NOW } }]);
    });

    it('reset asks a running Execute All to stop, then clears the results', () => {
      given([allStarted('a')])
        .when({ type: 'ResetResults', data: {} })
        .thenEmits([
          { type: 'MasterExecuteAllStopped', data: { runAllId: 'a', at: NOW } },
          { type: 'MasterResultsReset', data: { at: NOW } },
        ]);
      given([])
        .when({ type: 'ResetResults', data: {} })
        .thenEmits([{ type: 'MasterResultsReset', data: { at: NOW } }]);
    });
  });

  describe('after a crash', () => {
    const sweep: MasterCommand = {
      type: 'FailInterrupted',
      data: { startedBefore: '2026-05-01T09:30:00.000Z', alive: [] },
    };

    it('fails runs older than the model timeout as interrupted and closes their Execute All', () => {
      given([allStarted('a'), rowStarted('r1', 'row-a')])
        .when(sweep)
        .thenEmits([
          { type: 'MasterRowRunFailed', data: { runId: 'r1', message: 'interrupted', at: NOW } },
          {
            type: 'MasterExecuteAllEnded',
            data: { runAllId: 'a', outcome: 'failed', message: 'interrupted', at: NOW },
          },
        ]);
    });

    it('closes an Execute All that died between two rows', () => {
      given([allStarted('a'), rowStarted('r1', 'row-a'), rowSucceeded('r1')])
        .when(sweep)
        .thenEmits([
          {
            type: 'MasterExecuteAllEnded',
            data: { runAllId: 'a', outcome: 'failed', message: 'interrupted', at: NOW },
          },
        ]);
    });

    it('leaves young runs and a live Execute All alone', () => {
      const recent = '2026-05-01T09:59:00.000Z';
      given([allStarted('a', EARLIER), rowStarted('r1', 'row-a', recent)])
        .when(sweep)
        .thenEmits([]);
      given([rowStarted('r1', 'row-a'), rowStarted('r2', 'row-b', recent)])
        .when(sweep)
        .thenEmits([{ type: 'MasterRowRunFailed', data: { runId: 'r1', message: 'interrupted', at: NOW } }]);
      given([]).when(sweep).thenEmits([]);
      given([allStarted('a'), rowStarted('r1', 'row-a')])
        .when({ type: 'FailInterrupted', data: { startedBefore: NOW, alive: ['r1'] } })
        .thenEmits([]);
    });
  });
});

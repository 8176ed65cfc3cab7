import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import type { MasterCommand } from './commands';
import { decider, EXECUTE_ALL_RUNNING } from './decider';
import type { MasterEvent, MasterState } from './events';

const NOW = '2026-05-01T10:00:00.000Z';
const EARLIER = '2026-05-01T09:00:00.000Z';

function given(history: MasterEvent[]) {
  const state: MasterState = history.reduce(decider.evolve, decider.initialState());
  return {
    state,
    when(command: MasterCommand) {
      const run = () => decider.decide(command, state, { now: NOW });
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
  instanceId: 1,
});
const rowStarted = (runId: string, stepId: string, at = EARLIER): MasterEvent => ({
  type: 'MasterRowRunStarted',
  data: { ...startData(runId, stepId), at },
});
const rowSucceeded = (runId: string, at = EARLIER): MasterEvent => ({
  type: 'MasterRowRunSucceeded',
  data: { runId, result: 'done', usage: null, durationMs: 5, at },
});
/** An Execute All of this process (instance 1), of another (`instanceId`) or of before instances were kept (null). */
const allStarted = (runAllId: string, at = EARLIER, instanceId: number | null = 1): MasterEvent => ({
  type: 'MasterExecuteAllStarted',
  data: { runAllId, ...(instanceId === null ? {} : { instanceId }), at },
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
        .thenRefuses('conflict', 'Dòng 001 "Step 1" đang chạy');
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
        .thenRefuses('conflict', /đã kết thúc/);
    });

    it('keeps an answer holding text PostgreSQL cannot store, made storable', () => {
      given([rowStarted('r1', 'row-a')])
        .when({
          type: 'CompleteRowRun',
          data: { runId: 'r1', result: 'x\u0000y\udc00', usage: null, durationMs: 1 },
        })
        .thenEmits([
          {
            type: 'MasterRowRunSucceeded',
            data: { runId: 'r1', result: 'xy\ufffd', usage: null, durationMs: 1, at: NOW },
          },
        ]);
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
        .when({ type: 'StartExecuteAll', data: { runAllId: 'a', instanceId: 1 } })
        .thenEmits([{ type: 'MasterExecuteAllStarted', data: { runAllId: 'a', instanceId: 1, at: NOW } }]);
      given([allStarted('a')])
        .when({ type: 'StartExecuteAll', data: { runAllId: 'b', instanceId: 1 } })
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
        .when({ type: 'StartExecuteAll', data: { runAllId: 'b', instanceId: 2 } })
        .thenEmits([{ type: 'MasterExecuteAllStarted', data: { runAllId: 'b', instanceId: 2, at: NOW } }]);
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
    /** Swept by instance 1, which knows instance 2 to have died; 3 is alive. */
    const facts = {
      startedBefore: '2026-05-01T09:30:00.000Z',
      abandonedBefore: '2026-05-01T08:30:00.000Z',
      thisInstance: 1,
      goneInstances: [2],
    };
    const ABANDONED = '2026-05-01T08:00:00.000Z';
    const sweep: MasterCommand = { type: 'FailInterrupted', data: { ...facts, alive: [] } };
    const RECENT = '2026-05-01T09:59:00.000Z';
    const failed = (runId: string): MasterEvent => ({
      type: 'MasterRowRunFailed',
      data: { runId, message: 'interrupted', at: NOW },
    });
    const allFailed = (runAllId: string): MasterEvent => ({
      type: 'MasterExecuteAllEnded',
      data: { runAllId, outcome: 'failed', message: 'interrupted', at: NOW },
    });
    const rowOf = (instanceId: number | null, runId: string, stepId: string, at = EARLIER): MasterEvent => {
      const { instanceId: _this, ...data } = startData(runId, stepId);
      return {
        type: 'MasterRowRunStarted',
        data: { ...data, ...(instanceId === null ? {} : { instanceId }), at },
      };
    };

    it('fails at once the runs of a process that has died, and closes its Execute All', () => {
      given([allStarted('a', RECENT, 2), rowOf(2, 'r1', 'row-a', RECENT)])
        .when(sweep)
        .thenEmits([failed('r1'), allFailed('a')]);
      given([allStarted('a', RECENT, 2)])
        .when(sweep)
        .thenEmits([allFailed('a')]);
    });

    it("leaves another live process's runs and Execute All alone, past the model timeout too", () => {
      given([allStarted('a', EARLIER, 3), rowOf(3, 'r1', 'row-a')])
        .when(sweep)
        .thenEmits([]);
      given([allStarted('a', EARLIER, 3)])
        .when(sweep)
        .thenEmits([]);
    });

    it('fails them once no live process can be making them any more', () => {
      given([allStarted('a', ABANDONED, 3), rowOf(3, 'r1', 'row-a', ABANDONED)])
        .when(sweep)
        .thenEmits([failed('r1'), allFailed('a')]);
    });

    it('fails runs older than the model timeout as interrupted and closes their Execute All', () => {
      given([allStarted('a'), rowStarted('r1', 'row-a')])
        .when(sweep)
        .thenEmits([failed('r1'), allFailed('a')]);
      // Recorded before runs named their instance: the model timeout alone tells.
      given([allStarted('a', EARLIER, null), rowOf(null, 'r1', 'row-a')])
        .when(sweep)
        .thenEmits([failed('r1'), allFailed('a')]);
    });

    it('closes an Execute All that died between two rows', () => {
      given([allStarted('a'), rowStarted('r1', 'row-a'), rowSucceeded('r1')])
        .when(sweep)
        .thenEmits([allFailed('a')]);
    });

    it('leaves young runs, runs this process is making and a live Execute All alone', () => {
      given([allStarted('a', EARLIER), rowStarted('r1', 'row-a', RECENT)])
        .when(sweep)
        .thenEmits([]);
      given([rowStarted('r1', 'row-a'), rowOf(null, 'r2', 'row-b', RECENT)])
        .when(sweep)
        .thenEmits([failed('r1')]);
      given([]).when(sweep).thenEmits([]);
      given([allStarted('a'), rowStarted('r1', 'row-a')])
        .when({ type: 'FailInterrupted', data: { ...facts, startedBefore: NOW, alive: ['r1'] } })
        .thenEmits([]);
    });

    it('waits for the run of a live process before closing an Execute All of a dead one', () => {
      given([allStarted('a', RECENT, 2), rowOf(3, 'r1', 'row-a', RECENT)])
        .when(sweep)
        .thenEmits([]);
    });
  });
});

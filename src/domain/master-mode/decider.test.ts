import { describe, expect, it } from 'vitest';
import { given } from '../testing';
import type { MasterCommand, MasterContext } from './commands';
import { decider, EXECUTE_ALL_RUNNING } from './decider';
import type { MasterEvent } from './events';

const NOW = '2026-05-01T10:00:00.000Z';
const EARLIER = '2026-05-01T09:00:00.000Z';

const AT_NOW: MasterContext = { now: NOW };

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

const opened: MasterEvent = {
  type: 'MasterSessionOpened',
  data: {
    sessionId: 'session-1',
    ownerId: 'user-1',
    flowId: null,
    sessionName: 'Sheet',
    createdAt: EARLIER,
    at: EARLIER,
  },
};
const deleted: MasterEvent = { type: 'MasterSessionDeleted', data: { at: EARLIER } };

describe('master mode decider', () => {
  describe('the session', () => {
    it('is opened by its owner, once', () => {
      const open: MasterCommand = {
        type: 'OpenSession',
        data: { sessionId: 'session-1', ownerId: 'user-1', flowId: null, sessionName: 'Sheet' },
      };
      const { state } = given(decider, [], AT_NOW)
        .when(open)
        .thenEmits([{ type: 'MasterSessionOpened', data: { ...open.data, createdAt: NOW, at: NOW } }]);
      expect(state.ownerId).toBe('user-1');
      given(decider, [opened], AT_NOW).when(open).thenThrows('conflict');
    });

    it('knows its owner from its first run on a stream recorded before sessions were opened on it', () => {
      expect(given(decider, [rowStarted('r1', 'row-a')], AT_NOW).state.ownerId).toBe('user-1');
      expect(given(decider, [], AT_NOW).state.ownerId).toBeNull();
    });

    it('is deleted once, asking its Execute All to stop; nothing new starts on it after', () => {
      given(decider, [opened, allStarted('a')], AT_NOW)
        .when({ type: 'DeleteSession', data: {} })
        .thenEmits([
          { type: 'MasterExecuteAllStopped', data: { runAllId: 'a', at: NOW } },
          { type: 'MasterSessionDeleted', data: { at: NOW } },
        ]);
      given(decider, [opened, deleted], AT_NOW).when({ type: 'DeleteSession', data: {} }).thenEmits([]);
      const commands: MasterCommand[] = [
        { type: 'StartRowRun', data: startData('r1', 'row-a') },
        { type: 'StartExecuteAll', data: { runAllId: 'b', instanceId: 1 } },
        { type: 'ResetResults', data: {} },
      ];
      for (const command of commands) {
        given(decider, [opened, deleted], AT_NOW).when(command).thenThrows('not_found');
      }
      // What it left running still ends.
      given(decider, [opened, allStarted('a'), rowStarted('r1', 'row-a'), deleted], AT_NOW)
        .when({ type: 'FailRowRun', data: { runId: 'r1', message: 'gone' } })
        .thenEmits([{ type: 'MasterRowRunFailed', data: { runId: 'r1', message: 'gone', at: NOW } }]);
    });
  });

  describe('row runs', () => {
    it('starts a run of a row with what it was given', () => {
      given(decider, [], AT_NOW)
        .when({ type: 'StartRowRun', data: startData('r1', 'row-a') })
        .thenEmits([{ type: 'MasterRowRunStarted', data: { ...startData('r1', 'row-a'), at: NOW } }]);
    });

    it('refuses a second run of a row while one is running, in any process', () => {
      given(decider, [rowStarted('r1', 'row-a')], AT_NOW)
        .when({ type: 'StartRowRun', data: startData('r2', 'row-a') })
        .thenThrows('conflict', 'Dòng 001 "Step 1" đang chạy');
    });

    it('runs another row, or the same row again once its run has ended', () => {
      const history = [rowStarted('r1', 'row-a'), rowSucceeded('r1')];
      given(decider, history, AT_NOW)
        .when({ type: 'StartRowRun', data: startData('r2', 'row-a') })
        .thenEmits([{ type: 'MasterRowRunStarted', data: { ...startData('r2', 'row-a'), at: NOW } }]);
      given(decider, [rowStarted('r1', 'row-a')], AT_NOW)
        .when({ type: 'StartRowRun', data: startData('r2', 'row-b', 2) })
        .thenEmits([{ type: 'MasterRowRunStarted', data: { ...startData('r2', 'row-b', 2), at: NOW } }]);
    });

    it('records the answer of a running run, and refuses one for a run that has ended', () => {
      const complete: MasterCommand = {
        type: 'CompleteRowRun',
        data: {
          runId: 'r1',
          result: 'Hi',
          usage: { inputTokens: 1, outputTokens: 2 },
          durationMs: 9,
          firstTokenMs: 4,
        },
      };
      given(decider, [rowStarted('r1', 'row-a')], AT_NOW)
        .when(complete)
        .thenEmits([{ type: 'MasterRowRunSucceeded', data: { ...complete.data, at: NOW } }]);
      given(decider, [rowStarted('r1', 'row-a'), rowSucceeded('r1')], AT_NOW)
        .when(complete)
        .thenThrows('conflict', /đã kết thúc/);
    });

    it('keeps an answer holding text PostgreSQL cannot store, made storable', () => {
      given(decider, [rowStarted('r1', 'row-a')], AT_NOW)
        .when({
          type: 'CompleteRowRun',
          data: { runId: 'r1', result: 'x\u0000y\udc00', usage: null, durationMs: 1, firstTokenMs: null },
        })
        .thenEmits([
          {
            type: 'MasterRowRunSucceeded',
            data: {
              runId: 'r1',
              result: 'xy\ufffd',
              usage: null,
              durationMs: 1,
              firstTokenMs: null,
              at: NOW,
            },
          },
        ]);
    });

    it('a failure of a run that has ended already changes nothing: the first outcome stands', () => {
      given(decider, [rowStarted('r1', 'row-a'), rowSucceeded('r1')], AT_NOW)
        .when({ type: 'FailRowRun', data: { runId: 'r1', message: 'late' } })
        .thenEmits([]);
    });
  });

  describe('Execute All', () => {
    it('starts when none is running and refuses a second one at once', () => {
      given(decider, [], AT_NOW)
        .when({ type: 'StartExecuteAll', data: { runAllId: 'a', instanceId: 1 } })
        .thenEmits([{ type: 'MasterExecuteAllStarted', data: { runAllId: 'a', instanceId: 1, at: NOW } }]);
      given(decider, [allStarted('a')], AT_NOW)
        .when({ type: 'StartExecuteAll', data: { runAllId: 'b', instanceId: 1 } })
        .thenThrows('conflict', EXECUTE_ALL_RUNNING);
    });

    it('stop is asked once, and is nothing when none is running', () => {
      given(decider, [allStarted('a')], AT_NOW)
        .when({ type: 'StopExecuteAll', data: {} })
        .thenEmits([{ type: 'MasterExecuteAllStopped', data: { runAllId: 'a', at: NOW } }]);
      given(decider, [allStarted('a'), allStopped('a')], AT_NOW)
        .when({ type: 'StopExecuteAll', data: {} })
        .thenEmits([]);
      given(decider, [], AT_NOW).when({ type: 'StopExecuteAll', data: {} }).thenEmits([]);
    });

    it('ends only the Execute All that is running; then another may start', () => {
      const end = (runAllId: string): MasterCommand => ({
        type: 'EndExecuteAll',
        data: { runAllId, outcome: 'completed', message: null },
      });
      given(decider, [allStarted('a')], AT_NOW)
        .when(end('b'))
        .thenEmits([]);
      given(decider, [allStarted('a')], AT_NOW)
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
      const { state } = given(decider, [allStarted('a'), allStopped('a'), ended], AT_NOW);
      expect(state.executeAll).toBeNull();
      given(decider, [allStarted('a'), ended], AT_NOW)
        .when({ type: 'StartExecuteAll', data: { runAllId: 'b', instanceId: 2 } })
        .thenEmits([{ type: 'MasterExecuteAllStarted', data: { runAllId: 'b', instanceId: 2, at: NOW } }]);
    });

    it('reset asks a running Execute All to stop, then clears the results', () => {
      given(decider, [allStarted('a')], AT_NOW)
        .when({ type: 'ResetResults', data: {} })
        .thenEmits([
          { type: 'MasterExecuteAllStopped', data: { runAllId: 'a', at: NOW } },
          { type: 'MasterResultsReset', data: { at: NOW } },
        ]);
      given(decider, [], AT_NOW)
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
      given(decider, [allStarted('a', RECENT, 2), rowOf(2, 'r1', 'row-a', RECENT)], AT_NOW)
        .when(sweep)
        .thenEmits([failed('r1'), allFailed('a')]);
      given(decider, [allStarted('a', RECENT, 2)], AT_NOW)
        .when(sweep)
        .thenEmits([allFailed('a')]);
    });

    it("leaves another live process's runs and Execute All alone, past the model timeout too", () => {
      given(decider, [allStarted('a', EARLIER, 3), rowOf(3, 'r1', 'row-a')], AT_NOW)
        .when(sweep)
        .thenEmits([]);
      given(decider, [allStarted('a', EARLIER, 3)], AT_NOW)
        .when(sweep)
        .thenEmits([]);
    });

    it('fails them once no live process can be making them any more', () => {
      given(decider, [allStarted('a', ABANDONED, 3), rowOf(3, 'r1', 'row-a', ABANDONED)], AT_NOW)
        .when(sweep)
        .thenEmits([failed('r1'), allFailed('a')]);
    });

    it('fails runs older than the model timeout as interrupted and closes their Execute All', () => {
      given(decider, [allStarted('a'), rowStarted('r1', 'row-a')], AT_NOW)
        .when(sweep)
        .thenEmits([failed('r1'), allFailed('a')]);
      // Recorded before runs named their instance: the model timeout alone tells.
      given(decider, [allStarted('a', EARLIER, null), rowOf(null, 'r1', 'row-a')], AT_NOW)
        .when(sweep)
        .thenEmits([failed('r1'), allFailed('a')]);
    });

    it('closes an Execute All that died between two rows', () => {
      given(decider, [allStarted('a'), rowStarted('r1', 'row-a'), rowSucceeded('r1')], AT_NOW)
        .when(sweep)
        .thenEmits([allFailed('a')]);
    });

    it('leaves young runs, runs this process is making and a live Execute All alone', () => {
      given(decider, [allStarted('a', EARLIER), rowStarted('r1', 'row-a', RECENT)], AT_NOW)
        .when(sweep)
        .thenEmits([]);
      given(decider, [rowStarted('r1', 'row-a'), rowOf(null, 'r2', 'row-b', RECENT)], AT_NOW)
        .when(sweep)
        .thenEmits([failed('r1')]);
      given(decider, [], AT_NOW).when(sweep).thenEmits([]);
      given(decider, [allStarted('a'), rowStarted('r1', 'row-a')], AT_NOW)
        .when({ type: 'FailInterrupted', data: { ...facts, startedBefore: NOW, alive: ['r1'] } })
        .thenEmits([]);
    });

    it('waits for the run of a live process before closing an Execute All of a dead one', () => {
      given(decider, [allStarted('a', RECENT, 2), rowOf(3, 'r1', 'row-a', RECENT)], AT_NOW)
        .when(sweep)
        .thenEmits([]);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { snapshotFingerprint } from '../testing';
import { decider } from './decider';
import type { MasterEvent } from './events';
import { masterSnapshot } from './snapshot';

const at = (minute: number) => `2026-11-27T10:${String(minute).padStart(2, '0')}:00.000Z`;
const started = (runId: string, rowNumber: number, minute: number, instanceId?: number): MasterEvent => ({
  type: 'MasterRowRunStarted',
  data: {
    runId,
    userId: 'u1',
    sessionId: 's1',
    stepId: `step-${rowNumber}`,
    rowNumber,
    stepName: `Row ${rowNumber}`,
    stepType: 'ai',
    systemPrompt: 'Say hi.',
    userInput: '',
    finalPrompt: 'Say hi.',
    references: {},
    unresolvedReferences: [],
    model: 'offline',
    keySource: 'offline',
    ...(instanceId === undefined ? {} : { instanceId }),
    at: at(minute),
  },
});

const history: MasterEvent[] = [
  {
    type: 'MasterSessionOpened',
    data: { sessionId: 's1', ownerId: 'u1', flowId: null, sessionName: 'S', createdAt: at(0), at: at(0) },
  },
  { type: 'MasterExecuteAllStarted', data: { runAllId: 'all-1', instanceId: 3, at: at(1) } },
  started('r1', 1, 2, 3),
  started('r2', 2, 3),
  {
    type: 'MasterRowRunSucceeded',
    data: { runId: 'r1', result: 'Hi', usage: null, durationMs: 5, at: at(4) },
  },
  { type: 'MasterExecuteAllStopped', data: { runAllId: 'all-1', at: at(5) } },
  { type: 'MasterRowRunFailed', data: { runId: 'r2', message: 'No', at: at(6) } },
  {
    type: 'MasterExecuteAllEnded',
    data: { runAllId: 'all-1', outcome: 'stopped', message: null, at: at(7) },
  },
  { type: 'MasterResultsReset', data: { at: at(8) } },
  { type: 'MasterSessionDeleted', data: { at: at(9) } },
];

describe("a master mode session's snapshot", () => {
  it('holds every state of a history exactly, and names the shape that made them', () => {
    // A new hash means the state or evolve changed: bump masterSnapshot.shape, then store the new hash.
    expect({
      shape: masterSnapshot.shape,
      fingerprint: snapshotFingerprint(decider, masterSnapshot, [history]),
    }).toEqual({
      shape: 'master.1',
      fingerprint: '94d68c9280527749be1be176c248049f7fdef6a0f517ce4679b831b5f0b803d8',
    });
  });

  it('is refused when it is not a session state', () => {
    expect(masterSnapshot.decode({ ownerId: 1 })).toBeNull();
    expect(masterSnapshot.decode({ ...decider.initialState(), executeAll: 'running' })).toBeNull();
  });
});

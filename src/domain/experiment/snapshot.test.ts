import { describe, expect, it } from 'vitest';
import { snapshotFingerprint } from '../testing';
import { decider } from './decider';
import type { ExperimentEvent } from './events';
import { planRuns } from './plan';
import { experimentSnapshot } from './snapshot';
import {
  aScore,
  configOf,
  EXPERIMENT_ID,
  experimentStarted,
  FLOW_ID,
  ITEMS,
  OWNER,
  runFinished,
  runInterrupted,
  runStarted,
  STEPS,
  stopped,
} from './testing';

const at = (minute: number) => `2026-11-29T10:${String(minute).padStart(2, '0')}:00.000Z`;
const config = configOf({
  models: { [STEPS[0]!.id]: 'openai:gpt-4.1-mini' },
  review: { [STEPS[0]!.id]: 'auto' },
  scorers: [{ type: 'equals' }, { type: 'judge', model: 'openai:gpt-4.1', prompt: 'Ok?' }],
  concurrency: 2,
});
const runs = planRuns(ITEMS, 1).map((run, i) => (i === 0 ? { ...run, baselineExecutionId: 'base-a' } : run));

const finishedHistory: ExperimentEvent[] = [
  experimentStarted({ config, runs: planRuns(ITEMS, 1) }),
  runStarted('item-a#1', 'e1'),
  runStarted('item-b#1', 'e2'),
  runFinished('item-a#1', 'e1', 'completed'),
  runStarted('item-d#1', 'e3'),
  runFinished('item-b#1', 'e2', 'failed'),
  runFinished('item-d#1', 'e3', 'stopped'),
  { type: 'ExperimentCompleted', data: { at: at(5) } },
  {
    type: 'BaselinePromoted',
    data: { experimentId: EXPERIMENT_ID, flowId: FLOW_ID, flowVersion: 7, by: OWNER, at: at(6) },
  },
];
const stoppedHistory: ExperimentEvent[] = [
  experimentStarted({ config, runs, reuseBefore: STEPS[1]!.id, baselineId: 'experiment-0' }),
  runStarted('item-a#1', 'e1', 'base-a'),
  { type: 'ExperimentRunWaiting', data: { runKey: 'item-a#1', executionId: 'e1', at: at(0) } },
  { type: 'ExperimentRunReady', data: { runKey: 'item-a#1', executionId: 'e1', at: at(0) } },
  runStarted('item-a#1', 'e1'),
  runInterrupted('item-a#1', 'e1'),
  runStarted('item-a#1', 'e4', 'base-a'),
  {
    type: 'ScoresRecorded',
    data: { scores: [aScore({ executionId: 'e4' })], round: 0, by: OWNER, at: at(1) },
  },
  { type: 'ScoringRoundStarted', data: { round: 1, scorerNames: ['equals'], by: OWNER, at: at(2) } },
  stopped,
];

describe("an experiment's snapshot", () => {
  it('holds every state of a history exactly, and names the shape that made them', () => {
    // A new hash means the state or evolve changed: bump experimentSnapshot.shape, then store the new hash.
    expect({
      shape: experimentSnapshot.shape,
      fingerprint: snapshotFingerprint(decider, experimentSnapshot, [finishedHistory, stoppedHistory]),
    }).toEqual({
      shape: 'experiment.1',
      fingerprint: '3ee88416daf915275caf009bd2349aac4159fef5e7e093a98df5170fc7100bfa',
    });
  });

  it('is refused when it is not an experiment state', () => {
    expect(experimentSnapshot.decode({ experimentId: 1 })).toBeNull();
    expect(experimentSnapshot.decode({ ...decider.initialState(), runs: ['run'] })).toBeNull();
    expect(experimentSnapshot.decode({ ...decider.initialState(), stopped: 'yes' })).toBeNull();
    expect(experimentSnapshot.decode(JSON.parse(JSON.stringify(decider.initialState())))).toEqual(
      decider.initialState(),
    );
  });
});

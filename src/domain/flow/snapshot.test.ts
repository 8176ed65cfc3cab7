import { describe, expect, it } from 'vitest';
import { snapshotFingerprint } from '../testing';
import { decider } from './decider';
import type { FlowEvent, VersionedStep } from './events';
import { flowSnapshot } from './snapshot';

const at = (minute: number) => `2026-11-27T10:${String(minute).padStart(2, '0')}:00.000Z`;
const step = (id: string, order: number, inputSources: string[] = []): VersionedStep => ({
  id,
  order,
  name: `Step ${order}`,
  systemPrompt: `Do ${id}.`,
  outputMode: 'single',
  inputSources,
  choices: [],
  loopTargetStepId: null,
  maxLoopIterations: 1,
  currentLoopIteration: 0,
  requiresUserInput: false,
  createdAt: at(order),
});
const details = { name: 'Tea', description: 'About tea', status: 'draft', isTemplate: false };

const history: FlowEvent[] = [
  {
    type: 'FlowCreated',
    data: { flowId: 'f1', userId: 'u1', origin: 'manual', details, steps: [step('a', 1)], at: at(0) },
  },
  { type: 'StepAdded', data: { step: step('b', 2, ['a']), at: at(2) } },
  { type: 'StepAdded', data: { step: step('c', 3), at: at(3) } },
  { type: 'FlowDescribed', data: { before: { name: 'Tea' }, after: { name: 'Green tea' }, at: at(4) } },
  {
    type: 'StepEdited',
    data: { stepId: 'c', before: { name: 'Step 3' }, after: { name: 'Last' }, at: at(5) },
  },
  {
    type: 'StepsReordered',
    data: { orders: [{ stepId: 'c', before: 3, after: 0 }], at: at(6) },
  },
  { type: 'StepRemoved', data: { step: step('a', 1), at: at(7) } },
  { type: 'FlowMoved', data: { from: null, to: 'w1', at: at(8) } },
  {
    type: 'FlowRestored',
    data: { version: 2, details, steps: [step('a', 1), step('b', 2, ['a'])], at: at(9) },
  },
  { type: 'FlowDeleted', data: { at: at(10) } },
];

describe("a flow's snapshot", () => {
  it('holds every state of a history exactly, and names the shape that made them', () => {
    // A new hash means the state or evolve changed: bump flowSnapshot.shape, then store the new hash.
    expect({
      shape: flowSnapshot.shape,
      fingerprint: snapshotFingerprint(decider, flowSnapshot, [history]),
    }).toEqual({
      shape: 'flow.1',
      fingerprint: 'c9b97ba259428bf95524dee4641885ce4723d4a60b892fecca947452ead368eb',
    });
  });

  it('is refused when it is not a flow state', () => {
    expect(flowSnapshot.decode({ ...decider.initialState(), steps: null })).toBeNull();
    expect(flowSnapshot.decode(decider.initialState())).toEqual(decider.initialState());
  });
});

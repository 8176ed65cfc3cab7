import { describe, expect, it } from 'vitest';
import { snapshotFingerprint } from '../testing';
import { decider } from './decider';
import editAndReset from './fixtures/edit-and-reset.json';
import failureAndStop from './fixtures/failure-and-stop.json';
import outputModes from './fixtures/output-modes.json';
import { executionSnapshot } from './snapshot';
import type { ExecutionEvent } from './types';

const histories = [editAndReset, failureAndStop, outputModes].map((fixture) =>
  fixture.map(({ type, data }) => ({ type, data }) as ExecutionEvent),
);

describe("an execution's snapshot", () => {
  it('holds every state of the fixture histories exactly, and names the shape that made them', () => {
    // A new hash means the state or evolve changed: bump executionSnapshot.shape, then store the new hash.
    expect({
      shape: executionSnapshot.shape,
      fingerprint: snapshotFingerprint(decider, executionSnapshot, histories),
    }).toEqual({
      shape: 'execution.3',
      fingerprint: '93c106e61cdabd7fae908fb212dde65368816994977313526e5487a97bc63b71',
    });
  });

  it('is refused when it is not an execution state', () => {
    expect(executionSnapshot.decode(null)).toBeNull();
    expect(executionSnapshot.decode({ exists: true })).toBeNull();
    expect(executionSnapshot.decode({ ...decider.initialState(), results: {} })).toBeNull();
    expect(executionSnapshot.decode(decider.initialState())).toEqual(decider.initialState());
  });
});

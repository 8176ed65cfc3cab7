import { describe, expect, it } from 'vitest';
import { decider } from './decider';
import editAndReset from './fixtures/edit-and-reset.json';
import failureAndStop from './fixtures/failure-and-stop.json';
import outputModes from './fixtures/output-modes.json';
import type { ExecutionEvent, ExecutionState } from './types';

/**
 * Real runs, exported from the event log with `npm run events -- show <id> --json` and cut to what a replay
 * needs. Folding them here, away from the server and its database, must give the state the run had at each
 * position: that is what lets an auditor trust a replayed history. To add one, run a flow against a database
 * and export its execution: `npm run -s events -- show <id> --json | jq -s 'map({position, type, data})'`.
 */
type ExportedEvent = ExecutionEvent & { position: number };

const fixture = (events: unknown) => events as ExportedEvent[];

/** What the test states about the execution at one position. */
interface Expected {
  status: ExecutionState['status'];
  currentStep: number;
  /** Cache items still to run. */
  pending: number;
  /** Each run's status, and a failure's message. */
  runs: string[];
  /** Each result as 'label: first line of its text', with ' ✓' when approved. */
  results: string[];
  completed?: boolean;
}

function observed(state: ExecutionState): Expected {
  return {
    status: state.status,
    currentStep: state.currentStep,
    pending: state.executionCache.filter((item) => item.status === 'pending').length,
    runs: state.runs.map((run) => (run.status === 'failed' ? `failed: ${run.message}` : run.status)),
    results: state.results.map(
      (result) => `${result.label}: ${result.result.split('\n')[0]}${result.approved ? ' ✓' : ''}`,
    ),
    completed: state.completedAt !== null,
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Folds the events one by one and compares the state after each position with the one the test states. */
function replay(events: ExportedEvent[], expected: Record<number, Expected>) {
  // A frozen log: an evolve that wrote into an event (or a state it was given) would throw here.
  deepFreeze(events);
  expect(events.map((event) => event.position)).toEqual(events.map((_, i) => i + 1));
  expect(Object.keys(expected).map(Number)).toEqual(events.map((event) => event.position));
  let state = deepFreeze(decider.initialState());
  for (const event of events) {
    state = deepFreeze(decider.evolve(state, event));
    expect({ position: event.position, ...observed(state) }).toEqual({
      position: event.position,
      completed: false,
      ...expected[event.position],
    });
    // The same position reached from scratch: a fold depends on the events alone.
    expect(events.slice(0, event.position).reduce(decider.evolve, decider.initialState())).toEqual(state);
  }
  return state;
}

const GREEN_TEA = '[Offline model] List three ideas about green tea.';
const EDITED = 'Matcha latte, sencha lemonade, genmaicha cookies.';
const TITLE = `[Offline model] Write a title for ${EDITED}.`;

const ANGLES = {
  straightforward:
    'Straightforward approach: [Offline model] Straightforward take on: Give angles about tea. Focus: angles.',
  detailed: 'Detailed approach: [Offline model] Detailed take on: Give angles about tea. Focus: give.',
  creative: 'Creative approach: [Offline model] Creative take on: Give angles about tea.',
};
const TASTE = 'path: Taste: Taste ✓';
const DRAFT = '[Offline model] Draft a paragraph on Taste';

const OUTLINE = 'Branch 1: [Offline model] Outline an article about oolong.';
const UNREACHABLE = 'failed: Could not reach the Gemini API: bad port. Try again.';

describe('replaying exported runs', () => {
  it('an edit, an approval, completion, then a reset and a new run', () => {
    const events = fixture(editAndReset);
    const firstRun = `Branch 1: ${GREEN_TEA}`;
    const edited = `Branch 1: ${EDITED}`;
    const state = replay(events, {
      1: { status: 'running', currentStep: 1, pending: 2, runs: [], results: [] },
      2: { status: 'running', currentStep: 1, pending: 2, runs: ['running'], results: [] },
      3: { status: 'running', currentStep: 2, pending: 1, runs: ['succeeded'], results: [firstRun] },
      4: { status: 'running', currentStep: 2, pending: 1, runs: ['succeeded'], results: [edited] },
      5: { status: 'running', currentStep: 2, pending: 1, runs: ['succeeded'], results: [`${edited} ✓`] },
      6: {
        status: 'running',
        currentStep: 2,
        pending: 1,
        runs: ['succeeded', 'running'],
        results: [`${edited} ✓`],
      },
      // The approved, edited text is what step 2's prompt was given.
      7: {
        status: 'running',
        currentStep: 3,
        pending: 0,
        runs: ['succeeded', 'succeeded'],
        results: [`${edited} ✓`, `Branch 1: ${TITLE}`],
      },
      8: {
        status: 'completed',
        currentStep: 3,
        pending: 0,
        runs: ['succeeded', 'succeeded'],
        results: [`${edited} ✓`, `Branch 1: ${TITLE}`],
        completed: true,
      },
      // Reset: back to step 1 with fresh work; nothing of the history goes.
      9: {
        status: 'running',
        currentStep: 1,
        pending: 2,
        runs: ['succeeded', 'succeeded'],
        results: [`${edited} ✓`, `Branch 1: ${TITLE}`],
      },
      10: {
        status: 'running',
        currentStep: 1,
        pending: 2,
        runs: ['succeeded', 'succeeded', 'running'],
        results: [`${edited} ✓`, `Branch 1: ${TITLE}`],
      },
      11: {
        status: 'running',
        currentStep: 2,
        pending: 1,
        runs: ['succeeded', 'succeeded', 'succeeded'],
        results: [`${edited} ✓`, `Branch 1: ${TITLE}`, firstRun],
      },
    });
    // The whole edited text, and the edit's own record of what it replaced.
    expect(state.results[0]!.result).toBe(EDITED);
    const edit = events.find((event) => event.type === 'ResultEdited')!;
    expect(edit.type === 'ResultEdited' && edit.data.before.startsWith(GREEN_TEA)).toBe(true);
  });

  it('multiple alternatives approved and deleted, a choice, and a loop of two iterations', () => {
    const { straightforward, detailed, creative } = ANGLES;
    const state = replay(fixture(outputModes), {
      1: { status: 'running', currentStep: 1, pending: 4, runs: [], results: [] },
      2: { status: 'running', currentStep: 1, pending: 4, runs: ['running'], results: [] },
      3: {
        status: 'running',
        currentStep: 2,
        pending: 3,
        runs: ['succeeded'],
        results: [straightforward, detailed, creative],
      },
      4: {
        status: 'running',
        currentStep: 2,
        pending: 3,
        runs: ['succeeded'],
        results: [straightforward, `${detailed} ✓`, creative],
      },
      5: {
        status: 'running',
        currentStep: 2,
        pending: 3,
        runs: ['succeeded'],
        results: [`${straightforward} ✓`, `${detailed} ✓`, creative],
      },
      6: {
        status: 'running',
        currentStep: 2,
        pending: 3,
        runs: ['succeeded'],
        results: [straightforward, `${detailed} ✓`, creative],
      },
      7: {
        status: 'running',
        currentStep: 2,
        pending: 3,
        runs: ['succeeded'],
        results: [straightforward, `${detailed} ✓`],
      },
      8: {
        status: 'running',
        currentStep: 2,
        pending: 3,
        runs: ['succeeded', 'running'],
        results: [straightforward, `${detailed} ✓`],
      },
      // The model's pick is approved by itself: it is the path the flow took.
      9: {
        status: 'running',
        currentStep: 3,
        pending: 2,
        runs: ['succeeded', 'succeeded'],
        results: [straightforward, `${detailed} ✓`, TASTE],
      },
      10: {
        status: 'running',
        currentStep: 3,
        pending: 2,
        runs: ['succeeded', 'succeeded', 'running'],
        results: [straightforward, `${detailed} ✓`, TASTE],
      },
      // One iteration of two: the loop step is not done yet.
      11: {
        status: 'running',
        currentStep: 3,
        pending: 1,
        runs: ['succeeded', 'succeeded', 'succeeded'],
        results: [straightforward, `${detailed} ✓`, TASTE, `Loop 1: ${DRAFT}`],
      },
      12: {
        status: 'running',
        currentStep: 3,
        pending: 1,
        runs: ['succeeded', 'succeeded', 'succeeded', 'running'],
        results: [straightforward, `${detailed} ✓`, TASTE, `Loop 1: ${DRAFT}`],
      },
      13: {
        status: 'running',
        currentStep: 4,
        pending: 0,
        runs: ['succeeded', 'succeeded', 'succeeded', 'succeeded'],
        results: [straightforward, `${detailed} ✓`, TASTE, `Loop 1: ${DRAFT}`, `Loop 2: ${DRAFT}`],
      },
      14: {
        status: 'completed',
        currentStep: 4,
        pending: 0,
        runs: ['succeeded', 'succeeded', 'succeeded', 'succeeded'],
        results: [straightforward, `${detailed} ✓`, TASTE, `Loop 1: ${DRAFT}`, `Loop 2: ${DRAFT}`],
        completed: true,
      },
    });
    expect(state.results.map((result) => [result.choiceIndex, result.loopIteration])).toEqual([
      [null, null],
      [null, null],
      [2, null],
      [null, 1],
      [null, 2],
    ]);
  });

  it('a failed run, the same work run again, then a stop', () => {
    replay(fixture(failureAndStop), {
      1: { status: 'running', currentStep: 1, pending: 2, runs: [], results: [] },
      2: { status: 'running', currentStep: 1, pending: 2, runs: ['running'], results: [] },
      // A failure completes nothing: the step is still the one to run.
      3: { status: 'running', currentStep: 1, pending: 2, runs: [UNREACHABLE], results: [] },
      4: { status: 'running', currentStep: 1, pending: 2, runs: [UNREACHABLE, 'running'], results: [] },
      5: {
        status: 'running',
        currentStep: 2,
        pending: 1,
        runs: [UNREACHABLE, 'succeeded'],
        results: [OUTLINE],
      },
      6: {
        status: 'stopped',
        currentStep: 2,
        pending: 1,
        runs: [UNREACHABLE, 'succeeded'],
        results: [OUTLINE],
      },
    });
  });

  it('folds the same log to the same state every time', () => {
    for (const events of [editAndReset, outputModes, failureAndStop].map(fixture)) {
      const first = events.reduce(decider.evolve, decider.initialState());
      const second = events.reduce(decider.evolve, decider.initialState());
      expect(second).toEqual(first);
      expect(second).not.toBe(first);
    }
  });
});

import { describe, expect, it } from 'vitest';
import type { ExperimentSummary } from '../api/experiments';
import { compareOrder, latestPerVersion, statusOf, stopReasonText } from './experiment-list';

const summary = (id: string, extra: Partial<ExperimentSummary>): ExperimentSummary => ({
  id,
  flowId: 'f',
  flowVersion: 1,
  datasetId: 'd',
  datasetVersion: 1,
  baselineId: null,
  runsTotal: 3,
  runsFinished: 0,
  startedBy: 'u',
  startedAt: '2026-01-01T00:00:00.000Z',
  stoppedAt: null,
  completedAt: null,
  promotedAt: null,
  isBaseline: false,
  version: 1,
  ...extra,
});

// Newest first, as the list answers.
const LIST = [
  summary('c', { flowVersion: 3, startedAt: '2026-01-03T00:00:00.000Z' }),
  summary('b', {
    flowVersion: 2,
    startedAt: '2026-01-02T00:00:00.000Z',
    stoppedAt: '2026-01-02T01:00:00.000Z',
  }),
  summary('b0', {
    flowVersion: 2,
    startedAt: '2026-01-01T12:00:00.000Z',
    completedAt: '2026-01-01T13:00:00.000Z',
  }),
  summary('a', { flowVersion: 1, completedAt: '2026-01-01T01:00:00.000Z', isBaseline: true }),
];

describe("a flow's experiments", () => {
  it('are running until stopped or completed', () => {
    expect(LIST.map(statusOf)).toEqual(['running', 'stopped', 'completed', 'completed']);
  });

  it('show the newest of each version, the newest version first', () => {
    expect(latestPerVersion(LIST).map((e) => e.id)).toEqual(['c', 'b', 'a']);
  });

  it("are compared with the flow's baseline first, then oldest first, whatever order they were picked in", () => {
    expect(compareOrder(['c', 'b0', 'a'], LIST)).toEqual(['a', 'b0', 'c']);
    expect(compareOrder(['c', 'b'], LIST)).toEqual(['b', 'c']);
  });

  it('says why the server stopped an experiment on its own, and nothing when a person stopped it', () => {
    expect(stopReasonText({ stopReason: 'starterCannotRun' })).toContain(
      'người bắt đầu experiment không còn quyền chạy flow này',
    );
    expect(stopReasonText({ stopReason: null })).toBeNull();
  });
});

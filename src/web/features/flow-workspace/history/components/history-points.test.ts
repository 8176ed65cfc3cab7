import { describe, expect, it } from 'vitest';
import {
  aStep,
  draft,
  executionStarted,
  fold,
  stepRunStarted,
  stepRunSucceeded,
} from '../../../../../domain/execution/testing';
import type { ExecutionEvent } from '../../../../../domain/execution/types';
import type { HistoryEvent, UnreadableEvent } from '../api/get-execution-history';
import { auditTrailOf, flowVersionAt, flowVersionOf, historyPointsOf } from './history-points';

const step = aStep(1, { name: 'Ý tưởng' });
const events: ExecutionEvent[] = [
  executionStarted([step], ['c1']),
  stepRunStarted(step, 'run-1', { cacheItemId: 'c1' }),
  stepRunSucceeded('run-1', [draft('r1', 'An idea')]),
  { type: 'ResultApproved', data: { resultId: 'r1', at: '2025-01-02T03:05:00.000Z' } },
  {
    type: 'ResultEdited',
    data: { resultId: 'r1', before: 'An idea', after: 'A better idea', label: 'Branch 1', at: 'x' },
  },
  { type: 'ResultUnapproved', data: { resultId: 'r1', at: '2025-01-02T03:07:00.000Z' } },
];
const actors = ['An', 'An', 'An', 'Bình', 'Chi', 'Bình'];

const recorded: HistoryEvent[] = events.map(
  (event, i) =>
    ({
      ...event,
      position: i + 1,
      at: `2025-01-02T03:0${i}:00.000Z`,
      actor: { userId: `user-${actors[i]}`, name: actors[i]! },
      commandId: `command-${i + 1}`,
    }) as HistoryEvent,
);

describe('historyPointsOf', () => {
  it('gives each event in words with its actor, and the state just after it', () => {
    const points = historyPointsOf(recorded);
    expect(points.map((p) => [p.position, p.type, p.actor])).toEqual(
      recorded.map((e) => [e.position, e.type, e.actor.name]),
    );
    expect(points.map((p) => p.text.title)).toEqual([
      'Execution bắt đầu bởi An',
      "Step 1 (Ý tưởng) bắt đầu chạy với input 'input'",
      'Step 1 (Ý tưởng) chạy xong: 1 kết quả',
      "Kết quả 'Branch 1' được approve bởi Bình",
      "Kết quả 'Branch 1' được sửa bởi Chi",
      "Kết quả 'Branch 1' bị bỏ approve bởi Bình",
    ]);
    for (const [i, point] of points.entries()) expect(point.state).toEqual(fold(events.slice(0, i + 1)));
    expect(points[4]!.text.diff).not.toBeNull();
  });

  it('shows an unreadable event raw, keeping the state before it, and folds the rest', () => {
    const unreadable: UnreadableEvent = {
      readable: false,
      type: 'ResultApproved',
      raw: { x: 1 },
      position: 4,
      at: recorded[3]!.at,
      actor: recorded[3]!.actor,
      commandId: null,
    };
    const log = [...recorded.slice(0, 3), unreadable, ...recorded.slice(4)];
    const points = historyPointsOf(log);
    expect(points[3]).toMatchObject({
      position: 4,
      type: 'ResultApproved',
      readable: false,
      flowVersion: null,
    });
    expect(points[3]!.text.title).toBe('Sự kiện không đọc được');
    expect(points[3]!.text.detail).toContain('{"x":1}');
    expect(points[3]!.state).toEqual(fold(events.slice(0, 3)));
    expect(points[4]!.state).toEqual(fold([...events.slice(0, 3), events[4]!]));
    expect(points.filter((p) => p.readable)).toHaveLength(5);
    expect(auditTrailOf(log, 4).approvals.has('r1')).toBe(false);
  });
});

describe('auditTrailOf', () => {
  it('knows only what had happened by the point: the run prompt, who approved, who edited', () => {
    const atApproval = auditTrailOf(recorded, 4);
    expect(atApproval.runs.get('run-1')?.finalPrompt).toBe(step.systemPrompt);
    expect(atApproval.approvals.get('r1')).toEqual({ actor: 'Bình', at: recorded[3]!.at });
    expect(atApproval.edits.has('r1')).toBe(false);

    const atEdit = auditTrailOf(recorded, 5);
    expect(atEdit.edits.get('r1')).toEqual({ actor: 'Chi', at: recorded[4]!.at });

    // Unapproving takes the approval back.
    expect(auditTrailOf(recorded, 6).approvals.has('r1')).toBe(false);
    expect(auditTrailOf(recorded, 1).runs.size).toBe(0);
  });
});

describe('the flow version of an execution', () => {
  it('is named by ExecutionStarted and StepsSynced, and holds until the next one names another', () => {
    const withVersion = (event: HistoryEvent, flowVersion: number): HistoryEvent =>
      ({ ...event, data: { ...event.data, flowVersion } }) as HistoryEvent;
    const synced = {
      ...recorded[1]!,
      type: 'StepsSynced',
      data: { steps: [step], cacheItemIds: ['c1'], at: 'x', flowVersion: 7 },
    } as HistoryEvent;
    const points = historyPointsOf([withVersion(recorded[0]!, 4), ...recorded.slice(1, 3), synced]);
    expect(points.map((p) => p.flowVersion)).toEqual([4, null, null, 7]);
    expect([1, 3, 4].map((count) => flowVersionAt(points, count))).toEqual([4, 4, 7]);
    expect(flowVersionAt(points, 0)).toBeNull();
  });

  it('is unknown for an execution started before flows had versions', () => {
    expect(flowVersionAt(historyPointsOf(recorded), recorded.length)).toBeNull();
    expect(flowVersionOf({ type: 'ResultApproved', data: { resultId: 'r1', at: 'x' } })).toBeNull();
  });
});

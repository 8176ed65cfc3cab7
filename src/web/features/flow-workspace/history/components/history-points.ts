import { history as t } from '@/lib/strings';
import { describeEvent, type HistoryEntryText, statesAlong } from '../../../../../domain/execution/history';
import type { ExecutionEvent, ExecutionState } from '../../../../../domain/execution/types';
import type { HistoryEvent } from '../api/get-execution-history';

/** One point of an execution's history: an event in words, and the execution just after it. */
export interface HistoryPoint {
  position: number;
  at: string;
  actor: string | null;
  type: ExecutionEvent['type'];
  text: HistoryEntryText;
  state: ExecutionState;
  /** The flow version the execution started from or synced its steps to, when the event names one. */
  flowVersion: number | null;
}

const eventOf = (recorded: HistoryEvent) => ({ type: recorded.type, data: recorded.data }) as ExecutionEvent;

/** ExecutionStarted and StepsSynced name the flow version they took the steps from, since flows have versions. */
export const flowVersionOf = (event: ExecutionEvent): number | null =>
  event.type === 'ExecutionStarted' || event.type === 'StepsSynced' ? (event.data.flowVersion ?? null) : null;

/** The flow version the execution's steps are of after the first `count` points: the latest one named. */
export function flowVersionAt(points: readonly HistoryPoint[], count: number): number | null {
  return points.slice(0, count).reduce<number | null>((version, point) => point.flowVersion ?? version, null);
}

/** Folds the log once with the shared evolve; every point keeps the state it produced. */
export function historyPointsOf(events: HistoryEvent[]): HistoryPoint[] {
  const states = statesAlong(events.map(eventOf));
  return events.map((recorded, i) => ({
    position: recorded.position,
    at: recorded.at,
    actor: recorded.actor.name,
    type: recorded.type,
    text: describeEvent(eventOf(recorded), states[i]!, t.words, recorded.actor.name),
    state: states[i + 1]!,
    flowVersion: flowVersionOf(recorded),
  }));
}

/** What a run was sent: the prompt after [[label]] replacement, the input, the model and its key. */
export type RunStarted = Extract<ExecutionEvent, { type: 'StepRunStarted' }>['data'];

/** Who did something to a result, and when. */
export interface ResultAct {
  actor: string | null;
  at: string;
}

/** What an auditor asks of a result besides its text: the prompt it answered, who approved or edited it. */
export interface AuditTrail {
  runs: Map<string, RunStarted>;
  approvals: Map<string, ResultAct>;
  edits: Map<string, ResultAct>;
}

/** The trail as it stood after the first `count` events: later approvals are not yet known there. */
export function auditTrailOf(events: HistoryEvent[], count: number): AuditTrail {
  const trail: AuditTrail = { runs: new Map(), approvals: new Map(), edits: new Map() };
  for (const recorded of events.slice(0, count)) {
    const act = { actor: recorded.actor.name, at: recorded.at };
    switch (recorded.type) {
      case 'StepRunStarted':
        trail.runs.set(recorded.data.runId, recorded.data);
        break;
      case 'ResultApproved':
        trail.approvals.set(recorded.data.resultId, act);
        break;
      case 'ResultUnapproved':
        trail.approvals.delete(recorded.data.resultId);
        break;
      case 'ResultEdited':
        trail.edits.set(recorded.data.resultId, act);
        break;
      default:
        break;
    }
  }
  return trail;
}

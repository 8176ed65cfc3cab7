import { history as t } from '@/lib/strings';
import { describeEvent, type HistoryEntryText, statesAlong } from '../../../../../domain/execution/history';
import type { ExecutionEvent, ExecutionState } from '../../../../../domain/execution/types';
import { type HistoryEvent, isUnreadable, type LoggedEvent } from '../api/get-execution-history';

/** One point of an execution's history: an event in words, and the execution just after it. */
export interface HistoryPoint {
  position: number;
  at: string;
  actor: string | null;
  /** The event's type; for an unreadable one, the type as stored. */
  type: string;
  /** False for an event the server could not read: it is shown raw and changes nothing in the state. */
  readable: boolean;
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

/** The stored data of an unreadable event, as one line of at most this many characters. */
const RAW_LIMIT = 300;

/**
 * Folds the log once with the shared evolve; every point keeps the state it produced. An unreadable event is
 * left out of the fold: its point keeps the state before it, and shows what is stored.
 */
export function historyPointsOf(events: LoggedEvent[]): HistoryPoint[] {
  const readable = events.filter((event): event is HistoryEvent => !isUnreadable(event));
  const states = statesAlong(readable.map(eventOf));
  let folded = 0;
  return events.map((recorded) => {
    const common = { position: recorded.position, at: recorded.at, actor: recorded.actor.name };
    if (isUnreadable(recorded)) {
      const raw = JSON.stringify(recorded.raw) ?? 'null';
      return {
        ...common,
        type: recorded.type,
        readable: false,
        text: {
          title: t.unreadable,
          detail: t.unreadableDetail(
            recorded.type,
            raw.length > RAW_LIMIT ? `${raw.slice(0, RAW_LIMIT)}…` : raw,
          ),
          diff: null,
        },
        state: states[folded]!,
        flowVersion: null,
      };
    }
    const before = states[folded]!;
    folded += 1;
    return {
      ...common,
      type: recorded.type,
      readable: true,
      text: describeEvent(eventOf(recorded), before, t.words, recorded.actor.name),
      state: states[folded]!,
      flowVersion: flowVersionOf(recorded),
    };
  });
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
export function auditTrailOf(events: LoggedEvent[], count: number): AuditTrail {
  const trail: AuditTrail = { runs: new Map(), approvals: new Map(), edits: new Map() };
  for (const recorded of events.slice(0, count)) {
    if (isUnreadable(recorded)) continue;
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

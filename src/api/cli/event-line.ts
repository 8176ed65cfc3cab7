import type { ExecutionEvent } from '../../domain/execution';
import { decider as flowDecider } from '../../domain/flow/decider';
import { FLOW_STREAM_PREFIX, type FlowEvent, type FlowState } from '../../domain/flow/events';
import { versionSummary } from '../../domain/flow/version-summary';
import type { RecordedEvent } from '../../eventstore';
import { EXECUTION_STREAM_PREFIX } from '../../projections/project-execution-events';

/** Quoted texts in a summary are cut here: a line is for finding an event, the JSON output has it all. */
const QUOTE_LENGTH = 60;

function quoted(text: string, length = QUOTE_LENGTH): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(oneLine.length > length ? `${oneLine.slice(0, length - 1)}…` : oneLine);
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * What an execution event says, in a few words and with the ids a developer looks up next; null for a type
 * without words of its own here, which then shows its plain fields like any other event.
 */
function executionSummary(event: ExecutionEvent): string | null {
  switch (event.type) {
    case 'ExecutionStarted':
      return `flow ${event.data.flowId}, ${plural(event.data.steps.length, 'step')}`;
    case 'StepsSynced':
      return plural(event.data.steps.length, 'step');
    case 'StepRunStarted': {
      const d = event.data;
      const iteration = d.loopIteration > 0 ? ` loop ${d.loopIteration}` : '';
      return `step ${d.stepOrder}${iteration} run ${d.runId} (${d.outputMode}, ${d.model}, ${d.keySource} key) input ${quoted(d.userInput)}`;
    }
    case 'StepRunSucceeded': {
      const d = event.data;
      const labels = d.results.map((result) => quoted(result.label, 30)).join(', ');
      return `run ${d.runId}: ${plural(d.results.length, 'result')} ${labels} in ${d.durationMs} ms`;
    }
    case 'StepRunFailed':
      return `run ${event.data.runId}: ${quoted(event.data.message)}${event.data.retryable ? ' (retryable)' : ''}`;
    case 'ResultApproved':
    case 'ResultUnapproved':
      return `result ${event.data.resultId}`;
    case 'ResultEdited': {
      const d = event.data;
      return `result ${d.resultId} ${quoted(d.label, 30)}: ${quoted(d.before, 30)} -> ${quoted(d.after, 30)}`;
    }
    case 'ResultDeleted':
      return `result ${event.data.resultId}: ${quoted(event.data.content)}`;
    case 'ExecutionReset':
      return `${plural(event.data.cacheItemIds.length, 'cache item')} pending again`;
    case 'ExecutionStopped':
    case 'ExecutionCompleted':
      return '';
    default:
      return null;
  }
}

/**
 * What a flow event changed, in the words of the flow's version history, with the step it names; null for a
 * type without words of its own here. `before` is the flow as its stream stood before the event.
 */
function flowSummary(event: FlowEvent, before: FlowState): string | null {
  switch (event.type) {
    case 'FlowCreated':
    case 'FlowImported':
      return `${versionSummary(event, before)}, named ${quoted(event.data.details.name)}`;
    case 'StepAdded':
    case 'StepRemoved':
      return `${versionSummary(event, before)} (step ${event.data.step.id})`;
    case 'StepEdited':
      return `${versionSummary(event, before)} (step ${event.data.stepId})`;
    case 'FlowDescribed':
    case 'FlowStatusChanged':
    case 'StepsReordered':
    case 'FlowRestored':
    case 'FlowDeleted':
      return versionSummary(event, before);
    case 'FlowMoved':
      return `${versionSummary(event, before)} (from ${event.data.from ?? 'its owner'} to ${event.data.to ?? 'its owner'})`;
    default:
      return null;
  }
}

/** Other streams (master mode and any later kind) show their plain fields, so no event prints as nothing. */
function fieldsSummary(data: unknown): string {
  if (typeof data !== 'object' || data === null) return data === undefined ? '' : quoted(String(data));
  return Object.entries(data)
    .filter(([key, value]) => key !== 'at' && value !== null && typeof value !== 'object')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? quoted(value, 40) : String(value)}`)
    .join(' ');
}

function streamSummary(event: Pick<RecordedEvent, 'streamId' | 'type' | 'data'>, flow: FlowState) {
  const typed = { type: event.type, data: event.data };
  if (event.streamId.startsWith(EXECUTION_STREAM_PREFIX)) return executionSummary(typed as ExecutionEvent);
  if (event.streamId.startsWith(FLOW_STREAM_PREFIX)) return flowSummary(typed as FlowEvent, flow);
  return null;
}

/** `flow` is the flow as its stream stood before a flow event; without it, a step named by id reads "a step". */
export function eventSummary(
  event: Pick<RecordedEvent, 'streamId' | 'type' | 'data'>,
  flow: FlowState = flowDecider.initialState(),
): string {
  return streamSummary(event, flow) ?? fieldsSummary(event.data);
}

/**
 * The flow as its stream stands after `event`, from the flow before it; undefined for other streams and for a
 * flow not read from its stream's first event. A type the fold does not know leaves the flow as it was.
 */
export function flowAfter(before: FlowState | undefined, event: RecordedEvent): FlowState | undefined {
  if (!event.streamId.startsWith(FLOW_STREAM_PREFIX)) return undefined;
  if (before === undefined && event.streamPosition !== 1) return undefined;
  const flowEvent = { type: event.type, data: event.data } as FlowEvent;
  return flowDecider.evolve(before ?? flowDecider.initialState(), flowEvent) ?? before;
}

/** One event as one line: time, stream#position, type, actor, command id, summary. */
export function eventLine(event: RecordedEvent, flow?: FlowState): string {
  const { userId, commandId } = event.metadata;
  return [
    event.createdAt,
    `${event.streamId}#${event.streamPosition}`,
    event.type.padEnd(18),
    `actor=${userId ?? '-'}`,
    `command=${commandId ?? '-'}`,
    eventSummary(event, flow),
  ]
    .join('  ')
    .trimEnd();
}

/**
 * Lines for events read in log order: each flow seen from its stream's start is followed, so a line names
 * the steps its event changes.
 */
export function eventLines(): (event: RecordedEvent) => string {
  const flows = new Map<string, FlowState>();
  return (event) => {
    const before = flows.get(event.streamId);
    const after = flowAfter(before, event);
    if (after) flows.set(event.streamId, after);
    return eventLine(event, before);
  };
}

/** One event as one JSON object (for `--json`): everything the log holds of it but its transaction id. */
export function eventJson(event: RecordedEvent): string {
  return JSON.stringify({
    streamId: event.streamId,
    position: event.streamPosition,
    globalPosition: event.globalPosition,
    eventId: event.eventId,
    type: event.type,
    createdAt: event.createdAt,
    metadata: event.metadata,
    data: event.data,
  });
}

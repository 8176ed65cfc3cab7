import type { ExecutionEvent } from '../../domain/execution';
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

/** Other streams (master mode and any later kind) show their plain fields, so no event prints as nothing. */
function fieldsSummary(data: unknown): string {
  if (typeof data !== 'object' || data === null) return data === undefined ? '' : quoted(String(data));
  return Object.entries(data)
    .filter(([key, value]) => key !== 'at' && value !== null && typeof value !== 'object')
    .map(([key, value]) => `${key}=${typeof value === 'string' ? quoted(value, 40) : String(value)}`)
    .join(' ');
}

export function eventSummary(event: Pick<RecordedEvent, 'streamId' | 'type' | 'data'>): string {
  const summary = event.streamId.startsWith(EXECUTION_STREAM_PREFIX)
    ? executionSummary({ type: event.type, data: event.data } as ExecutionEvent)
    : null;
  return summary ?? fieldsSummary(event.data);
}

/** One event as one line: time, stream#position, type, actor, command id, summary. */
export function eventLine(event: RecordedEvent): string {
  const { userId, commandId } = event.metadata;
  return [
    event.createdAt,
    `${event.streamId}#${event.streamPosition}`,
    event.type.padEnd(18),
    `actor=${userId ?? '-'}`,
    `command=${commandId ?? '-'}`,
    eventSummary(event),
  ]
    .join('  ')
    .trimEnd();
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

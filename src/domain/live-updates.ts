import { z } from 'zod';
import { EXECUTION_STREAM_PREFIX } from './execution/stream';
import type { ExecutionEvent } from './execution/types';
import { EXPERIMENT_STREAM_PREFIX, type ExperimentEvent } from './experiment/events';
import { FLOW_STREAM_PREFIX, type FlowEvent } from './flow/events';
import { MASTER_STREAM_PREFIX, type MasterEvent } from './master-mode/events';
import { requestedId } from './record-id';

/**
 * The protocol of `/api/ws`, declared once for the server and the browser. A socket watches streams: an
 * execution (`executionId`), a master mode session (`masterSessionId`), a flow (`flowId`) or an experiment
 * (`experimentId`: its runs' progress). The client
 * subscribes from a stream position; the server replays the events after it, says 'up-to-date', then pushes
 * events live, and 'delta' messages carry a model's tokens while a run is under way (not stored). A flow is
 * watched from now when no position is given, and its watchers are also told of each execution of it that
 * starts ('execution-started'), in any tab or on any server: an open tab moves to it. A socket is also told
 * when a review that may be in its user's inbox is requested or decided ('reviews-changed', naming nothing):
 * the inbox and its count are read again, without watching any stream.
 */
export type LiveTopic =
  | { executionId: string }
  | { masterSessionId: string }
  | { flowId: string }
  | { experimentId: string };

const after = z.number().int().min(0).default(0);

export const clientMessageSchema = z.union([
  z.strictObject({ type: z.literal('subscribe'), executionId: requestedId(), after }),
  z.strictObject({ type: z.literal('subscribe'), masterSessionId: requestedId(), after }),
  z.strictObject({
    type: z.literal('subscribe'),
    flowId: requestedId(),
    after: z.number().int().min(0).optional(),
  }),
  z.strictObject({ type: z.literal('subscribe'), experimentId: requestedId(), after }),
  z.strictObject({ type: z.literal('unsubscribe'), executionId: requestedId() }),
  z.strictObject({ type: z.literal('unsubscribe'), masterSessionId: requestedId() }),
  z.strictObject({ type: z.literal('unsubscribe'), flowId: requestedId() }),
  z.strictObject({ type: z.literal('unsubscribe'), experimentId: requestedId() }),
]);

export type ClientMessage = z.input<typeof clientMessageSchema>;

/** An event as pushed: its type and data. */
export type LiveEvent = ExecutionEvent | MasterEvent | FlowEvent | ExperimentEvent;

/** What an `error` message says: the protocol's refusals, in the words of the rest of the product. */
export const LIVE_UPDATE_ERRORS = {
  failed: 'Không xử lý được tin nhắn này, hãy thử lại',
  notJson: 'Tin nhắn phải là JSON',
  unknownMessage:
    'Tin nhắn không đúng dạng: subscribe hoặc unsubscribe với executionId, masterSessionId, flowId hoặc experimentId',
} as const;

export type ServerMessage =
  | ({ type: 'event'; position: number; event: LiveEvent } & LiveTopic)
  | ({ type: 'up-to-date'; position: number } & LiveTopic)
  | ({ type: 'delta'; runId: string; text: string } & LiveTopic)
  | ({ type: 'error'; message: string } & Partial<
      Record<'executionId' | 'masterSessionId' | 'flowId' | 'experimentId', string>
    >)
  | { type: 'execution-started'; flowId: string; executionId: string }
  | { type: 'reviews-changed' };

/**
 * The close code of a socket whose sign-in session ended (sign-out, here or in another tab or server, or
 * expiry): 4000 + HTTP's 401. Reconnecting is pointless until the user signs in again.
 */
export const SIGNED_OUT_CLOSE_CODE = 4401;
/**
 * The close code of a socket whose server process is stopping (1012, Service Restart): the client connects
 * again at once, to another process, and subscribes from its positions.
 */
export const RESTART_CLOSE_CODE = 1012;

/**
 * The close code of a socket whose user was removed from a workspace it watched records of: it may open
 * again, and finds those records missing.
 */
export const REMOVED_FROM_WORKSPACE_CLOSE_CODE = 4403;

/** One key per watched stream, the same in the browser and on the server. */
export const topicKey = (t: LiveTopic): string =>
  'executionId' in t
    ? EXECUTION_STREAM_PREFIX + t.executionId
    : 'masterSessionId' in t
      ? MASTER_STREAM_PREFIX + t.masterSessionId
      : 'experimentId' in t
        ? EXPERIMENT_STREAM_PREFIX + t.experimentId
        : FLOW_STREAM_PREFIX + t.flowId;

/** The topic a message is about, when it names one (a flow's, for the start of one of its executions). */
export function topicOf(
  message: Partial<Record<'executionId' | 'masterSessionId' | 'flowId' | 'experimentId', string>>,
): LiveTopic | null {
  if (message.experimentId !== undefined) return { experimentId: message.experimentId };
  if (message.flowId !== undefined) return { flowId: message.flowId };
  if (message.executionId !== undefined) return { executionId: message.executionId };
  if (message.masterSessionId !== undefined) return { masterSessionId: message.masterSessionId };
  return null;
}

/** A topic from its key (the stream id). */
export function topicOfKey(key: string): LiveTopic | null {
  if (key.startsWith(EXECUTION_STREAM_PREFIX))
    return { executionId: key.slice(EXECUTION_STREAM_PREFIX.length) };
  if (key.startsWith(MASTER_STREAM_PREFIX))
    return { masterSessionId: key.slice(MASTER_STREAM_PREFIX.length) };
  if (key.startsWith(FLOW_STREAM_PREFIX)) return { flowId: key.slice(FLOW_STREAM_PREFIX.length) };
  if (key.startsWith(EXPERIMENT_STREAM_PREFIX))
    return { experimentId: key.slice(EXPERIMENT_STREAM_PREFIX.length) };
  return null;
}

/** Whether a snapshot at `incoming` is newer than one at `current`: equal versions are the same state. */
export const isNewer = (incoming: number, current: number | undefined): boolean =>
  current === undefined || incoming > current;

/**
 * Of the view held and one that arrives (pushed events, polls and answers arrive in any order), the one to
 * keep: the incoming one unless it is of the same stream and not newer, so an older view never wins.
 */
export function newerView<View extends { id: string; version: number }>(
  current: View | null | undefined,
  incoming: View,
): View {
  return current && current.id === incoming.id && !isNewer(incoming.version, current.version)
    ? current
    : incoming;
}

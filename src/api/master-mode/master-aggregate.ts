import type { TransactionSql } from 'postgres';
import type { MasterCommand, MasterContext } from '../../domain/master-mode/commands';
import { decider } from '../../domain/master-mode/decider';
import { MASTER_STREAM_PREFIX, type MasterEvent, type MasterState } from '../../domain/master-mode/events';
import { masterSnapshot } from '../../domain/master-mode/snapshot';
import type { RecordedEvent, Statement } from '../../eventstore';
import { masterStatements } from '../../projections/project-master-events';
import type { Aggregate, Loaded } from '../commands/command-handler';

/**
 * Master mode sessions as the command handler sees them: `master-<sessionId>` streams and their decider.
 * The stream names the session's owner, so the access rule is asked of the stream itself.
 */
export const masterAggregate: Aggregate<MasterState, MasterCommand, MasterEvent, MasterContext> = {
  streamType: 'master',
  streamPrefix: MASTER_STREAM_PREFIX,
  name: 'Master mode session',
  decider,
  snapshot: masterSnapshot,
  recordsOutcome: (command) => command.type === 'CompleteRowRun' || command.type === 'FailRowRun',
  kind: 'master-session',
  // A session is its opener's alone, whatever workspace its flow is in.
  holderOf: (state) => (state.ownerId === null ? undefined : { ownerId: state.ownerId, workspaceId: null }),
  actionOf: () => 'run',
  project: (tx, recorded, before) => [
    ...masterStatements(tx, [recorded]),
    ...writeRowResults(tx, recorded, before),
  ],
};

/**
 * A run's answer is its row's result, written with the event; a reset clears them. The rows are the
 * user's records, not a read model: a rebuild leaves them as they are.
 */
function writeRowResults(tx: TransactionSql, recorded: RecordedEvent[], before: Loaded<MasterState>) {
  const sessionId = recorded[0]!.streamId.slice(MASTER_STREAM_PREFIX.length);
  let state = before.state;
  const writes: Statement[] = [];
  for (const { type, data } of recorded) {
    const event = { type, data } as MasterEvent;
    if (event.type === 'MasterRowRunSucceeded') {
      const run = state.running[event.data.runId];
      if (run) {
        writes.push(tx`
          UPDATE master_mode_steps SET result = ${event.data.result}, updated_at = now() WHERE id = ${run.stepId}`);
      }
    } else if (event.type === 'MasterResultsReset') {
      writes.push(
        tx`UPDATE master_mode_steps SET result = '', updated_at = now() WHERE session_id = ${sessionId}`,
      );
    }
    state = decider.evolve(state, event);
  }
  if (writes.length > 0)
    writes.push(tx`UPDATE master_mode_sessions SET updated_at = now() WHERE id = ${sessionId}`);
  return writes;
}

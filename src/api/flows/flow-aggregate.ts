import type { FlowCommand, FlowContext } from '../../domain/flow/commands';
import { decider } from '../../domain/flow/decider';
import { FLOW_STREAM_PREFIX, type FlowEvent, type FlowState } from '../../domain/flow/events';
import { flowSnapshot } from '../../domain/flow/snapshot';
import { flowStatements } from '../../projections/project-flow-events';
import type { Aggregate } from '../commands/command-handler';

/** Flows as the command handler sees them: `flow-<id>` streams, the flow decider, `flows`/`steps` projected. */
export const flowAggregate: Aggregate<FlowState, FlowCommand, FlowEvent, FlowContext> = {
  streamType: 'flow',
  streamPrefix: FLOW_STREAM_PREFIX,
  name: 'Flow',
  decider,
  snapshot: flowSnapshot,
  recordsOutcome: () => false,
  kind: 'flow',
  holderOf: (state) =>
    state.flowId !== null && !state.deleted
      ? { ownerId: state.userId, workspaceId: state.workspaceId }
      : undefined,
  // Every change of a flow is an edit of it; moving it is too (the target workspace is asked by its caller).
  actionOf: () => 'change',
  project: (tx, recorded, before) => flowStatements(tx, recorded, before),
};

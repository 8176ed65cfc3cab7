import type { FlowCommand, FlowContext } from '../../domain/flow/commands';
import { decider } from '../../domain/flow/decider';
import { FLOW_STREAM_PREFIX, type FlowEvent, type FlowState } from '../../domain/flow/events';
import { flowStatements } from '../../projections/project-flow-events';
import { may } from '../access';
import type { Aggregate } from '../commands/command-handler';

/** Flows as the command handler sees them: `flow-<id>` streams, the flow decider, `flows`/`steps` projected. */
export const flowAggregate: Aggregate<FlowState, FlowCommand, FlowEvent, FlowContext> = {
  streamType: 'flow',
  streamPrefix: FLOW_STREAM_PREFIX,
  name: 'Flow',
  decider,
  recordsOutcome: () => false,
  visibleTo: (state, userId) =>
    state.flowId !== null && !state.deleted && may(userId, 'read', 'flow', state.userId),
  project: (tx, recorded, before) => flowStatements(tx, recorded, before),
};

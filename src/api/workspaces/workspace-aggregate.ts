import type { WorkspaceCommand, WorkspaceContext } from '../../domain/workspace/commands';
import { decider } from '../../domain/workspace/decider';
import {
  WORKSPACE_STREAM_PREFIX,
  type WorkspaceEvent,
  type WorkspaceState,
} from '../../domain/workspace/events';
import { workspaceSnapshot } from '../../domain/workspace/snapshot';
import { workspaceStatements } from '../../projections/project-workspace-events';
import type { Aggregate } from '../commands/command-handler';

/**
 * Workspaces as the command handler sees them: `workspace-<id>` streams, the workspace decider, the
 * workspace tables projected. The members are the workspace's own state, so a command is allowed or refused
 * on the very state it is decided on: an owner manages members, any member may leave, and an invitation is
 * accepted by one who is not a member yet (the decider checks its token and e-mail address).
 */
export const workspaceAggregate: Aggregate<
  WorkspaceState,
  WorkspaceCommand,
  WorkspaceEvent,
  WorkspaceContext
> = {
  streamType: 'workspace',
  streamPrefix: WORKSPACE_STREAM_PREFIX,
  name: 'Workspace',
  decider,
  snapshot: workspaceSnapshot,
  recordsOutcome: () => false,
  kind: 'workspace',
  holderOf: (state) =>
    state.workspaceId === null ? undefined : { ownerId: null, workspaceId: state.workspaceId },
  roleIn: (state, actor) => state.members.get(actor) ?? null,
  actionOf: (command, actor) => {
    switch (command.type) {
      case 'AcceptInvitation':
        return null;
      case 'RemoveMember':
        return command.data.userId === actor ? 'read' : 'manage';
      case 'CreateWorkspace':
        return 'change';
      default:
        return 'manage';
    }
  },
  project: (tx, recorded) => workspaceStatements(tx, recorded),
};

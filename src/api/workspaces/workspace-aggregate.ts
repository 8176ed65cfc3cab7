import type { WorkspaceCommand, WorkspaceContext } from '../../domain/workspace/commands';
import { decider } from '../../domain/workspace/decider';
import {
  WORKSPACE_STREAM_PREFIX,
  type WorkspaceEvent,
  type WorkspaceState,
} from '../../domain/workspace/events';
import { workspaceStatements } from '../../projections/project-workspace-events';
import type { Holder } from '../access';
import type { Aggregate } from '../commands/command-handler';

/** The workspace's holder for access.ts: the workspace, with the user's role there (null: not a member). */
export const holderOfWorkspace = (state: WorkspaceState, userId: string): Holder => ({
  workspaceId: state.workspaceId!,
  role: state.members.get(userId) ?? null,
});

/**
 * Workspaces as the command handler sees them: `workspace-<id>` streams, the workspace decider, the
 * workspace tables projected. Any existing workspace loads: who may give which command is checked with
 * access.ts on the loaded state (WorkspaceCommands' guards), since one who is not a member yet accepts an
 * invitation to it.
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
  recordsOutcome: () => false,
  kind: 'workspace',
  holderOf: (state) =>
    state.workspaceId === null ? undefined : { ownerId: null, workspaceId: state.workspaceId },
  actionOf: () => 'read',
  checksAccessItself: true,
  project: (tx, recorded) => workspaceStatements(tx, recorded),
};

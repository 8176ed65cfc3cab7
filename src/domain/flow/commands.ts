import type { ReviewMember } from '../step-review';
import type { Role } from '../workspace/events';
import type { FlowDetails, FlowOrigin, FlowSnapshot, FlowState, StepFields, VersionedStep } from './events';

/**
 * Commands of a flow's stream. Every change of a flow or its steps is one, so every version of the flow is a
 * position of its stream; the caller names new ids (a flow's, a step's).
 */
export type FlowCommand =
  | {
      type: 'CreateFlow';
      data: { flowId: string; origin: FlowOrigin; workspaceId?: string | null | undefined } & FlowSnapshot;
    }
  /** Name, description and status as one form saves them: one version, however many of them changed. */
  | { type: 'ReviseFlow'; data: Partial<Pick<FlowDetails, 'name' | 'description' | 'status'>> }
  | { type: 'AddStep'; data: { step: Omit<VersionedStep, 'createdAt'> } }
  | { type: 'EditStep'; data: { stepId: string; changes: Partial<StepFields> } }
  | { type: 'RemoveStep'; data: { stepId: string } }
  | { type: 'ReorderSteps'; data: { orders: { stepId: string; order: number }[] } }
  /** `past` is the flow as it stood at `version` (the caller folds the stream up to it). */
  | { type: 'RestoreVersion'; data: { version: number; past: FlowState } }
  | { type: 'DeleteFlow'; data: Record<string, never> }
  /** Into a workspace, to another, or back to the owner's own flows (null). Who may is the access rule's. */
  | { type: 'MoveFlow'; data: { workspaceId: string | null } };

export interface FlowContext {
  /** ISO time of the command. */
  now: string;
  userId: string;
  /** The stream's version the state reflects. */
  version: number;
  /**
   * The actor's role in the flow's workspace (for a new flow, the one it is made in), when the caller looked
   * it up: a step's review rule there is its owners' to change.
   */
  role?: Role | null | undefined;
  /** That workspace's members, when the caller looked them up: whom a step's review rule may ask. */
  members?: readonly ReviewMember[] | undefined;
}

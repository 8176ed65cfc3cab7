import type { Step } from '../flow';

/** The stream of a flow's versions: `flow-<flowId>`. */
export const FLOW_STREAM_PREFIX = 'flow-';
export const flowStreamId = (flowId: string) => `${FLOW_STREAM_PREFIX}${flowId}`;

/** A step as a flow's stream records it: every field of the step but its flow. */
export type VersionedStep = Omit<Step, 'flowId'>;

/** The fields of a step an edit may change. */
export type StepFields = Omit<VersionedStep, 'id' | 'createdAt'>;

export interface FlowDetails {
  name: string;
  description: string;
  status: string;
  isTemplate: boolean;
}

/** Which path made a flow: every path that creates one records itself. */
export const FLOW_ORIGINS = [
  'manual',
  'json-import',
  'ai-creator',
  'flow-creator',
  'recommendation',
  'template',
] as const;
export type FlowOrigin = (typeof FLOW_ORIGINS)[number];
/** The paths that create a flow from Workflow JSON (POST /api/ai/create-from-json) say which they are. */
export const WORKFLOW_JSON_ORIGINS = ['json-import', 'ai-creator', 'flow-creator', 'template'] as const;
export type WorkflowJsonOrigin = (typeof WORKFLOW_JSON_ORIGINS)[number];

/** A flow as it stands at a version: its details and its steps, in order. */
export interface FlowSnapshot {
  details: FlowDetails;
  steps: VersionedStep[];
}

export type FlowEvent =
  | {
      type: 'FlowCreated';
      /** `workspaceId`: the workspace it was made in (absent or null: its maker's own). */
      data: {
        flowId: string;
        userId: string;
        origin: FlowOrigin;
        workspaceId?: string | null;
      } & FlowSnapshot & {
          at: string;
        };
    }
  /** A flow that existed before flows had streams, as it stood then: its stream's first version. */
  | {
      type: 'FlowImported';
      data: { flowId: string; userId: string; createdAt: string } & FlowSnapshot & { at: string };
    }
  | {
      /** Name, description and status as one save changed them (status: since one save is one version). */
      type: 'FlowDescribed';
      data: {
        before: Partial<Pick<FlowDetails, 'name' | 'description' | 'status'>>;
        after: Partial<Pick<FlowDetails, 'name' | 'description' | 'status'>>;
        at: string;
      };
    }
  /** A status change of a stream written before FlowDescribed carried the status. */
  | { type: 'FlowStatusChanged'; data: { before: string; after: string; at: string } }
  | { type: 'StepAdded'; data: { step: VersionedStep; at: string } }
  | {
      type: 'StepEdited';
      data: { stepId: string; before: Partial<StepFields>; after: Partial<StepFields>; at: string };
    }
  /** The step, whole (for the record), and the later steps that stop taking it as an input. */
  | { type: 'StepRemoved'; data: { step: VersionedStep; at: string } }
  | {
      type: 'StepsReordered';
      data: { orders: { stepId: string; before: number; after: number }[]; at: string };
    }
  /** The flow as it stood at `version`, made its newest version; nothing earlier is rewritten. */
  | { type: 'FlowRestored'; data: { version: number } & FlowSnapshot & { at: string } }
  | { type: 'FlowDeleted'; data: { at: string } }
  /** Moved into a workspace, to another, or back to its owner's own flows (null). */
  | { type: 'FlowMoved'; data: { from: string | null; to: string | null; at: string } };

export interface FlowState extends FlowSnapshot {
  /** null: no flow on this stream yet. */
  flowId: string | null;
  userId: string | null;
  /** The workspace the flow is in; null: its owner's own. */
  workspaceId: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  deleted: boolean;
}

/** Steps in the order the flow shows them: by order, then by when they were added (then by id, as stored). */
export const inStepOrder = (steps: VersionedStep[]) =>
  steps.toSorted(
    (a, b) =>
      a.order - b.order ||
      Date.parse(a.createdAt) - Date.parse(b.createdAt) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );

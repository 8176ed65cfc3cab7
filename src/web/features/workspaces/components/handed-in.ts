import type { ComponentType } from 'react';

/** The screens of other features a workspace's page shows, handed in by the app (features import no feature). */

/** An execution's history, read-only; the flow workspace's screen, handed in by the app. */
export type ExecutionHistoryDialog = ComponentType<{
  flowId: string;
  executionId?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}>;

/** The flows list's dialog that makes a flow, here in the workspace; handed in by the app. */
export type CreateFlowInWorkspaceDialog = ComponentType<{
  open: boolean;
  onOpenChange: (open: boolean) => void;
  workspaceId: string;
}>;

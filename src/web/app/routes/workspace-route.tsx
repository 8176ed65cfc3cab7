import { HistoryDialog } from '@/features/flow-workspace/history/components/history-dialog';
import { CreateFlowDialog } from '@/features/flows/components/create-flow-dialog';
import { WorkspacePage } from '@/features/workspaces/components/workspace-page';

/** A workspace's page, with the flow screens' history dialog and the flows list's create dialog. */
export function WorkspaceRoute() {
  return <WorkspacePage historyDialog={HistoryDialog} createFlowDialog={CreateFlowDialog} />;
}

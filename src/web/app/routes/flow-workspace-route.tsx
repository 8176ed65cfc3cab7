import { FlowWorkspacePage } from '@/features/flow-workspace/workspace/components/flow-workspace-page';
import { MasterModeOfFlow } from '@/features/master-mode/components/master-mode-of-flow';

/** The flow workspace with the master mode screen in its Master mode. */
export function FlowWorkspaceRoute() {
  return <FlowWorkspacePage masterMode={MasterModeOfFlow} />;
}

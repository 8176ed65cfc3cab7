import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function AiFlowCreatorPage() {
  return <ComingSoonPage title={placeholders.aiFlowCreator} testId="ai-flow-creator-page" />;
}

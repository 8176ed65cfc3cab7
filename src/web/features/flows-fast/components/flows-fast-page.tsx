import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function FlowsFastPage() {
  return <ComingSoonPage title={placeholders.flowsFast} testId="flows-fast-page" />;
}

import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function FlowsStaticPage() {
  return <ComingSoonPage title={placeholders.flowsStatic} testId="flows-static-page" />;
}

import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function MasterModePage() {
  return <ComingSoonPage title={placeholders.masterMode} testId="master-mode-page" />;
}

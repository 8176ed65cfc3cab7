import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function SessionsPage() {
  return <ComingSoonPage title={placeholders.sessions} testId="sessions-page" />;
}

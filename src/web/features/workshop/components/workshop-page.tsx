import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function WorkshopPage() {
  return <ComingSoonPage title={placeholders.workshop} testId="workshop-page" />;
}

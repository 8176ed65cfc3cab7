import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function RecommendationsPage() {
  return <ComingSoonPage title={placeholders.recommendations} testId="recommendations-page" />;
}

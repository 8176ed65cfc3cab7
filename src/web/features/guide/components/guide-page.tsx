import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function GuidePage() {
  return <ComingSoonPage title={placeholders.guide} testId="guide-page" />;
}

import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function AboutPage() {
  return <ComingSoonPage title={placeholders.about} testId="about-page" />;
}

import { ComingSoonPage } from '../../../components/ui/coming-soon-page';
import { placeholders } from '../../../lib/strings';

export function ApiKeysPage() {
  return <ComingSoonPage title={placeholders.apiKeys} testId="api-keys-page" />;
}

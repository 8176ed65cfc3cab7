import type { ExecutionStatus } from '../../../../../domain/execution/types';
import { Badge } from '../../../../components/ui/badge';
import { queueCard } from '../../../../lib/strings';

const tones = { running: 'indigo', stopped: 'amber', completed: 'green', failed: 'red' } as const;

/** An execution's status as a coloured badge, with the status in data-status for tests. */
export function ExecutionStatusBadge({ status, testId }: { status: ExecutionStatus; testId: string }) {
  return (
    <Badge tone={tones[status]} data-testid={testId} data-status={status}>
      {queueCard.status[status]}
    </Badge>
  );
}

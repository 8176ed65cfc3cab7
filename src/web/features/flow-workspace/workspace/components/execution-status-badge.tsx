import { Badge } from '@/components/ui/badge';
import { queueCard } from '@/features/flow-workspace/strings';
import { shownStatus } from '../../../../../domain/execution/queries';
import type { ExecutionState } from '../../../../../domain/execution/types';

const tones = {
  running: 'indigo',
  waiting: 'neutral',
  stopped: 'amber',
  completed: 'green',
  failed: 'red',
} as const;

/** An execution's status as a coloured badge, the same as the lists show it, in data-status for tests. */
export function ExecutionStatusBadge({
  execution,
  testId,
}: {
  execution: Pick<ExecutionState, 'status' | 'runs'>;
  testId: string;
}) {
  const status = shownStatus(execution);
  return (
    <Badge tone={tones[status]} data-testid={testId} data-status={status}>
      {queueCard.status[status]}
    </Badge>
  );
}

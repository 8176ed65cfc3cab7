import { Badge } from '@/components/ui/badge';
import { statuses } from '../strings';

const tones = { running: 'amber', stopping: 'amber', stopped: 'neutral', completed: 'green' } as const;

/** An experiment's status as a badge. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge
      tone={tones[status as keyof typeof tones] ?? 'neutral'}
      data-testid="experiment-status"
      data-status={status}
    >
      {statuses[status] ?? status}
    </Badge>
  );
}

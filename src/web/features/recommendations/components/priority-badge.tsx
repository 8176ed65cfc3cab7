import { Badge } from '@/components/ui/badge';
import { recommendations as t } from '../strings';
import { type PriorityStyle, priorityStyle } from './recommendation-display';

const TONES = { destructive: 'red', default: 'indigo', secondary: 'neutral' } as const satisfies Record<
  PriorityStyle,
  string
>;

export function PriorityBadge({ priority }: { priority: string }) {
  const style = priorityStyle(priority);
  return (
    <Badge tone={TONES[style]} data-testid="recommendation-priority" data-style={style}>
      {t.priorities[priority] ?? priority}
    </Badge>
  );
}

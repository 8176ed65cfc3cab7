import { Recycle } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { rerunFromStep as t } from '@/features/flow-workspace/strings';
import { formatDateTime } from '@/lib/format-date';
import type { StepResult } from '../../../../../domain/execution/types';

/** Marks a result copied from an earlier execution by a re-run, with when that execution started. */
export function ReusedResultBadge({ result }: { result: StepResult }) {
  if (!result.origin) return null;
  const startedAt = formatDateTime(result.origin.executionStartedAt);
  return (
    <Badge
      tone="neutral"
      title={t.reusedTitle(startedAt)}
      data-testid="result-reused"
      data-source-execution-id={result.origin.executionId}
      data-source-result-id={result.origin.resultId}
    >
      <Recycle className="h-3 w-3" />
      {t.reusedAt(startedAt)}
    </Badge>
  );
}

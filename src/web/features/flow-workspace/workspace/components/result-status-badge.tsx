import { Badge } from '@/components/ui/badge';
import { runMode as t } from '@/lib/strings';
import type { StepResult } from '../../../../../domain/execution/types';

/** A result's status: selected for a choice step's result, else approved or awaiting approval. */
export function ResultStatusBadge({
  result,
  isChoice,
  testId,
}: {
  result: Pick<StepResult, 'approved'>;
  isChoice: boolean;
  testId: string;
}) {
  if (isChoice) {
    return (
      <Badge tone="indigo" data-testid={testId}>
        {t.selected}
      </Badge>
    );
  }
  return (
    <Badge tone={result.approved ? 'green' : 'amber'} data-testid={testId}>
      {result.approved ? t.approved : t.pending}
    </Badge>
  );
}

import { ShieldAlert } from 'lucide-react';
import { unreviewedResults as t } from '@/features/flow-workspace/strings';
import { cn } from '@/lib/cn';
import type { UnreviewedResultUse } from '../../../../../domain/execution/types';

/**
 * Says which results a run's prompt used while nobody had approved them, as the server recorded them with
 * the run: approving them later does not change what that run was sent.
 */
export function UnreviewedResultsNote({
  uses,
  testId,
  className,
}: {
  uses: readonly UnreviewedResultUse[];
  testId: string;
  className?: string;
}) {
  if (uses.length === 0) return null;
  return (
    <p
      className={cn(
        'flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-xs text-amber-900',
        className,
      )}
      title={t.title}
      data-testid={testId}
    >
      <ShieldAlert className="mt-0.5 h-3.5 w-3.5 shrink-0" />
      <span>
        {t.used}: {uses.map((use) => t.name(use.stepOrder, use.label)).join(', ')}
      </span>
    </p>
  );
}

import { Gauge } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { type UsageLevel, usageLevel } from '../../../../domain/free-allowance';
import type { Usage } from '../api/get-usage';
import { apiKeys as t } from '../strings';

const tones: Record<UsageLevel, { card: string; bar: string }> = {
  unlimited: { card: 'border-emerald-200 bg-emerald-50 text-emerald-900', bar: 'bg-emerald-500' },
  plenty: { card: 'border-yellow-200 bg-yellow-50 text-yellow-900', bar: 'bg-yellow-500' },
  low: { card: 'border-red-200 bg-red-50 text-red-900', bar: 'bg-red-500' },
};

/** Steps used and left of the free allowance: green when unlimited, yellow with more than 5 left, red otherwise. */
export function UsageCard({ usage, isLoading }: { usage: Usage | undefined; isLoading: boolean }) {
  if (isLoading || !usage) {
    return (
      <Card className="p-5" data-testid="usage-loading">
        <Skeleton className="h-5 w-1/3" />
        <Skeleton className="mt-3 h-4 w-1/2" />
      </Card>
    );
  }
  const level = usageLevel(usage.remainingSteps);
  const unlimited = level === 'unlimited';
  const allowance = usage.usedSteps + usage.remainingSteps;
  const usedShare = unlimited || allowance === 0 ? 1 : Math.min(1, usage.usedSteps / allowance);
  return (
    // Not a Card: its white background would compete with the tone's.
    <div
      className={cn('rounded-xl border p-5 shadow-sm', tones[level].card)}
      data-testid="usage-card"
      data-level={level}
    >
      <div className="flex items-start gap-3">
        <Gauge className="mt-0.5 h-5 w-5 shrink-0" />
        <div className="flex-1">
          <h2 className="font-semibold">{t.usageTitle}</h2>
          <p className="mt-1 text-sm opacity-90">{unlimited ? t.unlimitedText : t.freeText(allowance)}</p>
          <div className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm font-medium">
            <span data-testid="usage-used">{t.usedSteps(usage.usedSteps)}</span>
            <span data-testid="usage-remaining">
              {unlimited ? t.remainingUnlimited : t.remainingSteps(usage.remainingSteps)}
            </span>
          </div>
          {unlimited ? null : (
            <div className="mt-3 h-2 overflow-hidden rounded-full bg-white/70">
              <div
                className={cn('h-full rounded-full', tones[level].bar)}
                style={{ width: `${Math.round(usedShare * 100)}%` }}
              />
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

import { Clock, MessageSquare, Target, Wand2 } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import type { RecommendationRecord } from '@/features/recommendations/api/get-recommendations';
import { recommendations as t } from '../strings';
import { CategoryIcon } from './category-icon';
import { PriorityBadge } from './priority-badge';

/** A recommendation in the list: its summary opens the details; Implement makes the flow right away. */
export function RecommendationCard({
  recommendation: r,
  onOpen,
  onImplement,
  implementing,
}: {
  recommendation: RecommendationRecord;
  onOpen: () => void;
  onImplement: () => void;
  implementing: boolean;
}) {
  return (
    <Card
      className="flex flex-col transition-shadow hover:shadow-md"
      data-testid="recommendation-card"
      data-recommendation-id={r.id}
      data-type={r.recommendationType}
    >
      <button
        type="button"
        onClick={onOpen}
        className="flex cursor-pointer items-start gap-3 rounded-t-xl p-5 pb-3 text-left focus-visible:outline-2 focus-visible:outline-indigo-500"
        data-testid="recommendation-open"
      >
        <CategoryIcon category={r.category} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <h3 className="font-semibold text-slate-900" data-testid="recommendation-title">
              {r.title}
            </h3>
            <div className="flex items-center gap-2">
              {t.statuses[r.status] ? <Badge tone="green">{t.statuses[r.status]}</Badge> : null}
              <PriorityBadge priority={r.priority} />
            </div>
          </div>
          <p className="mt-1 line-clamp-3 text-sm text-slate-600">{r.description}</p>
        </div>
      </button>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 px-5 pb-4 pl-17 text-xs text-slate-500">
        <Badge tone="outline" data-testid="recommendation-type">
          {t.types[r.recommendationType] ?? r.recommendationType}
        </Badge>
        <span className="inline-flex items-center gap-1" data-testid="recommendation-confidence">
          <Target className="h-3.5 w-3.5" />
          {t.confidence(r.confidence)}
        </span>
        {r.estimatedTimeReduction !== null ? (
          <span className="inline-flex items-center gap-1" data-testid="recommendation-time">
            <Clock className="h-3.5 w-3.5" />
            {t.timeReduction(r.estimatedTimeReduction)}
          </span>
        ) : null}
        <span className="inline-flex items-center gap-1" data-testid="recommendation-feedback-count">
          <MessageSquare className="h-3.5 w-3.5" />
          {t.feedbackCount(r.feedbackCount)}
        </span>
        <Button
          size="sm"
          className="ml-auto"
          disabled={implementing}
          onClick={onImplement}
          data-testid="recommendation-implement"
        >
          <Wand2 className="h-4 w-4" />
          {implementing ? t.implementing : t.implement}
        </Button>
      </div>
    </Card>
  );
}

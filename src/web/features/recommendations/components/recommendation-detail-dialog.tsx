import { CheckCircle2, Clock, MessageSquare, Star, ThumbsDown, Wand2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { StepConfigurationBadges } from '@/components/step-configuration-badges';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import type { RecommendationRecord } from '@/features/recommendations/api/get-recommendations';
import { cn } from '@/lib/cn';
import { referencedOrder } from '../../../../domain/workflow-json';
import { recommendations as t } from '../strings';
import { CategoryIcon } from './category-icon';
import { PriorityBadge } from './priority-badge';
import { complexityPercent, formatRating } from './recommendation-display';

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <section className="flex flex-col gap-2" data-testid={testId}>
      <h4 className="text-sm font-semibold text-slate-900">{title}</h4>
      {children}
    </section>
  );
}

/** Stars filled up to the rating, rounded to a whole star. */
function Stars({ rating }: { rating: number }) {
  return (
    <span className="inline-flex">
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          className={cn(
            'h-4 w-4',
            n <= Math.round(rating) ? 'fill-amber-400 text-amber-400' : 'text-slate-300',
          )}
        />
      ))}
    </span>
  );
}

/** Everything about one recommendation, and what the user can do with it. */
export function RecommendationDetailDialog({
  recommendation: r,
  onClose,
  onGiveFeedback,
  onNotInterested,
  onImplement,
  busy,
}: {
  recommendation: RecommendationRecord | null;
  onClose: () => void;
  onGiveFeedback: () => void;
  onNotInterested: () => void;
  onImplement: () => void;
  busy: boolean;
}) {
  return (
    <Dialog open={r !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      {r ? (
        <DialogContent
          title={r.title}
          closeLabel={t.close}
          className="max-h-[85vh] max-w-2xl overflow-y-auto"
          data-testid="recommendation-detail"
        >
          <div className="flex flex-col gap-5">
            <div className="flex items-start gap-3">
              <CategoryIcon category={r.category} />
              <div className="flex flex-col gap-2">
                <div className="flex flex-wrap items-center gap-2">
                  <PriorityBadge priority={r.priority} />
                  <Badge tone="outline">{t.types[r.recommendationType] ?? r.recommendationType}</Badge>
                  <span className="text-xs text-slate-500">{t.confidence(r.confidence)}</span>
                </div>
                <p className="text-sm whitespace-pre-line text-slate-700">{r.description}</p>
              </div>
            </div>

            <Section title={t.benefits} testId="recommendation-benefits">
              {r.benefits.length > 0 ? (
                <ul className="flex flex-col gap-1 text-sm text-slate-700">
                  {r.benefits.map((benefit) => (
                    <li key={benefit} className="flex items-start gap-2">
                      <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" />
                      {benefit}
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-sm text-slate-500">{t.noBenefits}</p>
              )}
            </Section>

            <div className="grid gap-4 sm:grid-cols-2">
              <Section title={t.timeSavings} testId="recommendation-time-savings">
                <p className="inline-flex items-center gap-1.5 text-sm text-slate-700">
                  <Clock className="h-4 w-4 text-slate-500" />
                  {r.estimatedTimeReduction !== null
                    ? t.timeSavingsValue(r.estimatedTimeReduction)
                    : t.noTimeEstimate}
                </p>
              </Section>
              <Section title={t.complexity} testId="recommendation-complexity">
                <div className="flex items-center gap-3">
                  <div className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100">
                    <div
                      className="h-full rounded-full bg-indigo-500"
                      style={{ width: `${complexityPercent(r.implementationComplexity)}%` }}
                      data-testid="recommendation-complexity-bar"
                    />
                  </div>
                  <span className="text-xs text-slate-600">
                    {t.complexities[r.implementationComplexity] ?? r.implementationComplexity}
                  </span>
                </div>
              </Section>
            </div>

            <Section title={t.recommendedSteps} testId="recommendation-steps">
              <ol className="flex flex-col gap-2">
                {r.recommendedSteps.map((step) => (
                  <li key={step.order} className="rounded-lg border border-slate-200 p-3">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <span className="text-sm font-medium text-slate-900">
                        {t.step(step.order, step.name)}
                      </span>
                      <div className="flex flex-wrap gap-1" data-testid="recommendation-step-configuration">
                        <StepConfigurationBadges
                          step={step}
                          inputOrders={step.inputSources.map((source) => referencedOrder(source) ?? 0)}
                        />
                      </div>
                    </div>
                    <p className="mt-1 line-clamp-4 text-xs whitespace-pre-line text-slate-600">
                      {step.systemPrompt}
                    </p>
                    {step.reasoning ? (
                      <p className="mt-1 text-xs text-indigo-700 italic">{step.reasoning}</p>
                    ) : null}
                  </li>
                ))}
              </ol>
            </Section>

            {r.tags.length > 0 ? (
              <Section title={t.tags} testId="recommendation-tags">
                <div className="flex flex-wrap gap-1.5">
                  {r.tags.map((tag) => (
                    <Badge key={tag} tone="indigo">
                      {tag}
                    </Badge>
                  ))}
                </div>
              </Section>
            ) : null}

            <Section title={t.communityFeedback} testId="recommendation-community-feedback">
              <div className="flex flex-wrap items-center gap-3 text-sm text-slate-700">
                {r.averageRating !== null ? (
                  <span className="inline-flex items-center gap-2">
                    <Stars rating={r.averageRating} />
                    <span data-testid="recommendation-average-rating">
                      {t.averageRating(formatRating(r.averageRating))}
                    </span>
                  </span>
                ) : (
                  <span className="text-slate-500">{t.noRatings}</span>
                )}
                <span className="inline-flex items-center gap-1 text-slate-500">
                  <MessageSquare className="h-4 w-4" />
                  {t.feedbackCount(r.feedbackCount)}
                </span>
              </div>
            </Section>

            <div className="flex flex-wrap justify-end gap-2 border-t border-slate-100 pt-4">
              <Button variant="outline" onClick={onGiveFeedback} data-testid="recommendation-give-feedback">
                <MessageSquare className="h-4 w-4" />
                {t.giveFeedback}
              </Button>
              <Button
                variant="ghost"
                onClick={onNotInterested}
                disabled={busy}
                data-testid="recommendation-not-interested"
              >
                <ThumbsDown className="h-4 w-4" />
                {t.notInterested}
              </Button>
              <Button onClick={onImplement} disabled={busy} data-testid="recommendation-implement-workflow">
                <Wand2 className="h-4 w-4" />
                {t.implementWorkflow}
              </Button>
            </div>
          </div>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

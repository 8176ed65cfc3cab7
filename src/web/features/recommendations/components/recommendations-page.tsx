import * as Tabs from '@radix-ui/react-tabs';
import { Gauge, LayoutTemplate, Lightbulb, type LucideIcon, Sparkles, TrendingUp } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { LoadMore } from '@/components/ui/load-more';
import { Skeleton } from '@/components/ui/skeleton';
import { useToast } from '@/components/ui/toast';
import type { RecommendationRecord } from '@/features/recommendations/api/get-recommendations';
import { itemsOf } from '@/lib/paged-list';
import { pagedList } from '@/lib/strings';
import { useGenerateRecommendations } from '../api/generate-recommendations';
import { usePatterns } from '../api/get-patterns';
import { useRecommendations } from '../api/get-recommendations';
import { useTemplates } from '../api/get-templates';
import { useGiveFeedback } from '../api/give-feedback';
import { useImplementRecommendation } from '../api/implement-recommendation';
import { recommendations as t } from '../strings';
import { FeedbackDialog, type FeedbackInput } from './feedback-dialog';
import { RecommendationCard } from './recommendation-card';
import { RecommendationDetailDialog } from './recommendation-detail-dialog';
import {
  averageConfidence,
  inTab,
  isActive,
  isPending,
  isShown,
  RECOMMENDATION_TABS,
  type RecommendationTab,
} from './recommendation-display';

const triggerClasses =
  'rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 transition-colors data-[state=active]:bg-white data-[state=active]:text-slate-900 data-[state=active]:shadow-sm cursor-pointer';

// "Not interested" is a dismissal; the call needs a rating, and not wanting it is the lowest one.
const NOT_INTERESTED = { action: 'dismissed', rating: 1 } as const;

function StatCard({
  icon: Icon,
  label,
  value,
  testId,
}: {
  icon: LucideIcon;
  label: string;
  value: string | number;
  testId: string;
}) {
  return (
    <Card className="flex items-center gap-3 p-4">
      <span className="flex h-10 w-10 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600">
        <Icon className="h-5 w-5" />
      </span>
      <div>
        <p className="text-xs text-slate-500">{label}</p>
        <p className="text-xl font-bold text-slate-900" data-testid={testId}>
          {value}
        </p>
      </div>
    </Card>
  );
}

function EmptyState({ onGenerate, generating }: { onGenerate: () => void; generating: boolean }) {
  return (
    <Card className="flex flex-col items-center gap-3 p-10 text-center" data-testid="recommendations-empty">
      <Lightbulb className="h-10 w-10 text-slate-300" />
      <h2 className="text-lg font-semibold text-slate-900">{t.emptyTitle}</h2>
      <p className="max-w-md text-sm text-slate-600">{t.emptyText}</p>
      <Button onClick={onGenerate} disabled={generating}>
        <Sparkles className="h-4 w-4" />
        {generating ? t.generating : t.generate}
      </Button>
    </Card>
  );
}

export function RecommendationsPage() {
  const recommendations = useRecommendations();
  const templates = useTemplates();
  const patterns = usePatterns();
  const generate = useGenerateRecommendations();
  const implement = useImplementRecommendation();
  const giveFeedback = useGiveFeedback();
  const toast = useToast();
  const [tab, setTab] = useState<RecommendationTab>('all');
  const [openId, setOpenId] = useState<string | null>(null);
  const [feedbackOpen, setFeedbackOpen] = useState(false);

  // Read page by page as the screen scrolls: the counts are of the recommendations read so far ('50+').
  const shown = itemsOf(recommendations.data).filter(isShown);
  const more = recommendations.hasNextPage;
  // Looked up in the list, so the dialog shows the recommendation as feedback changes it.
  const open = shown.find((r) => r.id === openId) ?? null;

  const runGenerate = () =>
    generate.mutate(undefined, {
      onSuccess: ({ count }) =>
        toast({ title: t.toasts.generatedTitle, description: t.toasts.generated(count), variant: 'success' }),
    });

  const runImplement = (recommendation: RecommendationRecord) =>
    implement.mutate(recommendation.id, {
      onSuccess: (flow) => {
        setOpenId(null);
        toast({
          title: t.toasts.implementedTitle,
          description: t.toasts.implemented(flow.name),
          variant: 'success',
        });
      },
    });

  const sendFeedback = (recommendation: RecommendationRecord, input: FeedbackInput) =>
    giveFeedback.mutate(
      { id: recommendation.id, ...input },
      {
        onSuccess: () => {
          setFeedbackOpen(false);
          if (input.action === 'dismissed') setOpenId(null);
          toast({ title: t.toasts.feedbackTitle, description: t.toasts.feedbackText, variant: 'success' });
        },
      },
    );

  const tabLabel = (name: RecommendationTab) =>
    name === 'all' ? t.tabs.all(pagedList.soFar(shown.filter(isPending).length, more)) : t.tabs[name];

  return (
    <div className="mx-auto max-w-6xl px-4 py-8" data-testid="recommendations-page">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">{t.title}</h1>
          <p className="mt-1 text-sm text-slate-600">{t.subtitle}</p>
        </div>
        <Button onClick={runGenerate} disabled={generate.isPending} data-testid="generate-recommendations">
          <Sparkles className="h-4 w-4" />
          {generate.isPending ? t.generating : t.generate}
        </Button>
      </div>

      <div className="mt-6 grid grid-cols-2 gap-4 lg:grid-cols-4">
        <StatCard
          icon={Lightbulb}
          label={t.stats.active}
          value={pagedList.soFar(shown.filter(isActive).length, more)}
          testId="stat-active-recommendations"
        />
        <StatCard
          icon={LayoutTemplate}
          label={t.stats.templates}
          value={templates.data?.length ?? 0}
          testId="stat-templates"
        />
        <StatCard
          icon={TrendingUp}
          label={t.stats.patterns}
          value={patterns.data?.length ?? 0}
          testId="stat-patterns"
        />
        <StatCard
          icon={Gauge}
          label={more ? t.stats.confidenceSoFar : t.stats.confidence}
          value={t.percent(averageConfidence(shown))}
          testId="stat-average-confidence"
        />
      </div>

      <div className="mt-8">
        {recommendations.isLoading ? (
          <div className="flex flex-col gap-4" data-testid="recommendations-loading">
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} className="h-32 w-full" />
            ))}
          </div>
        ) : recommendations.isError ? (
          <p className="text-sm text-red-600">{t.loadFailed}</p>
        ) : shown.length === 0 ? (
          // None shown among those read so far: the pages after are read while the end is in view.
          more ? null : (
            <EmptyState onGenerate={runGenerate} generating={generate.isPending} />
          )
        ) : (
          <Tabs.Root value={tab} onValueChange={(value) => setTab(value as RecommendationTab)}>
            <Tabs.List className="inline-flex flex-wrap gap-1 rounded-lg bg-slate-100 p-1">
              {RECOMMENDATION_TABS.map((name) => (
                <Tabs.Trigger key={name} value={name} className={triggerClasses} data-testid={`tab-${name}`}>
                  {tabLabel(name)}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            {RECOMMENDATION_TABS.map((name) => {
              const listed = inTab(shown, name);
              return (
                <Tabs.Content key={name} value={name} className="mt-4 flex flex-col gap-4">
                  {listed.length === 0 ? (
                    more ? null : (
                      <p
                        className="py-10 text-center text-sm text-slate-500"
                        data-testid="recommendations-tab-empty"
                      >
                        {t.emptyTab}
                      </p>
                    )
                  ) : (
                    listed.map((recommendation) => (
                      <RecommendationCard
                        key={recommendation.id}
                        recommendation={recommendation}
                        onOpen={() => setOpenId(recommendation.id)}
                        onImplement={() => runImplement(recommendation)}
                        implementing={implement.isPending && implement.variables === recommendation.id}
                      />
                    ))
                  )}
                </Tabs.Content>
              );
            })}
          </Tabs.Root>
        )}
        <LoadMore
          hasNextPage={more}
          isFetchingNextPage={recommendations.isFetchingNextPage}
          fetchNextPage={recommendations.fetchNextPage}
          testId="recommendations-load-more"
        />
      </div>

      <RecommendationDetailDialog
        recommendation={open}
        onClose={() => setOpenId(null)}
        onGiveFeedback={() => setFeedbackOpen(true)}
        onNotInterested={() => open && sendFeedback(open, NOT_INTERESTED)}
        onImplement={() => open && runImplement(open)}
        busy={implement.isPending || giveFeedback.isPending}
      />
      <FeedbackDialog
        open={feedbackOpen && open !== null}
        onOpenChange={setFeedbackOpen}
        onSubmit={(input) => open && sendFeedback(open, input)}
        submitting={giveFeedback.isPending}
      />
    </div>
  );
}

import type {
  Complexity,
  Priority,
  RecommendationRecord,
  RecommendationType,
} from '../../../../domain/workflow-recommendations';

/** The complexity bar is filled 25% for low, 60% for medium, 90% for anything else. */
export function complexityPercent(complexity: Complexity | string): number {
  return complexity === 'low' ? 25 : complexity === 'medium' ? 60 : 90;
}

export type PriorityStyle = 'destructive' | 'default' | 'secondary';

/** Urgent and high share the destructive style, medium the default, low the secondary. */
export function priorityStyle(priority: Priority | string): PriorityStyle {
  if (priority === 'urgent' || priority === 'high') return 'destructive';
  return priority === 'low' ? 'secondary' : 'default';
}

/** An average rating is shown with one decimal. */
export const formatRating = (rating: number) => rating.toFixed(1);

/** A recommendation the user said they do not want is not shown again. */
export const isShown = (r: Pick<RecommendationRecord, 'status'>) => r.status !== 'dismissed';

/** Shown and not yet turned into a flow. */
export const isActive = (r: Pick<RecommendationRecord, 'status'>) => isShown(r) && r.status !== 'implemented';

export const isPending = (r: Pick<RecommendationRecord, 'status'>) => r.status === 'pending';

/** The mean confidence of the recommendations, as a rounded percent (0 when there are none). */
export function averageConfidence(recommendations: readonly Pick<RecommendationRecord, 'confidence'>[]) {
  if (recommendations.length === 0) return 0;
  return Math.round(recommendations.reduce((sum, r) => sum + r.confidence, 0) / recommendations.length);
}

export const RECOMMENDATION_TABS = ['all', 'template', 'optimization', 'automation', 'enhancement'] as const;
export type RecommendationTab = (typeof RECOMMENDATION_TABS)[number];

/** The recommendations a tab lists: all of them, or those of its type. */
export function inTab<T extends Pick<RecommendationRecord, 'recommendationType'>>(
  recommendations: readonly T[],
  tab: RecommendationTab,
): T[] {
  return tab === 'all'
    ? [...recommendations]
    : recommendations.filter((r) => r.recommendationType === (tab satisfies RecommendationType));
}

import { z } from 'zod';
import { checkWorkflowSteps, renumberSteps, workflowStepSchema } from './workflow-json';

export const RECOMMENDATION_TYPES = ['template', 'optimization', 'automation', 'enhancement'] as const;
export type RecommendationType = (typeof RECOMMENDATION_TYPES)[number];

export const RECOMMENDATION_CATEGORIES = [
  'productivity',
  'automation',
  'analysis',
  'creative',
  'business',
  'other',
] as const;
export type RecommendationCategory = (typeof RECOMMENDATION_CATEGORIES)[number];

export const PRIORITIES = ['urgent', 'high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

export const COMPLEXITIES = ['low', 'medium', 'high'] as const;
export type Complexity = (typeof COMPLEXITIES)[number];

export const FEEDBACK_ACTIONS = ['accepted', 'dismissed', 'modified', 'implemented'] as const;
export type FeedbackAction = (typeof FEEDBACK_ACTIONS)[number];

/** At most this many recommendations come out of one look at a user's flows. */
export const MAX_RECOMMENDATIONS = 8;

/**
 * A step of a recommended workflow: a Workflow JSON step (its whole configuration, so a step kept from the
 * user's flow is created as it was) and why it is there.
 */
export const recommendedStepSchema = workflowStepSchema.extend({
  order: z.int().min(1).max(50),
  // As Workflow JSON keeps a prompt: as written, untrimmed.
  systemPrompt: z.string().min(1).max(20_000),
  reasoning: z.string().trim().max(2_000).default(''),
});
export type RecommendedStep = z.output<typeof recommendedStepSchema>;

/** A recommendation as a model must give it (and as the offline model makes it) before it is stored. */
export const recommendationDraftSchema = z.object({
  recommendationType: z.enum(RECOMMENDATION_TYPES),
  title: z.string().trim().min(1).max(200),
  description: z.string().trim().min(1).max(2_000),
  category: z.enum(RECOMMENDATION_CATEGORIES).catch('other'),
  priority: z.enum(PRIORITIES).catch('medium'),
  confidence: z.int().min(0).max(100).catch(70),
  baseFlowId: z
    .string()
    .nullable()
    .default(null)
    .describe('id of the flow it improves, empty for a new workflow'),
  recommendedSteps: z
    .array(recommendedStepSchema)
    .min(1)
    .max(20)
    .transform((steps) => renumberSteps(steps))
    .superRefine((steps, ctx) => checkWorkflowSteps(steps, ctx)),
  benefits: z.array(z.string().trim().min(1).max(500)).max(10).default([]),
  estimatedTimeReduction: z
    .int()
    .min(0)
    .max(10_000)
    .nullable()
    .default(null)
    .describe('minutes saved per run'),
  implementationComplexity: z.enum(COMPLEXITIES).catch('medium'),
  tags: z.array(z.string().trim().min(1).max(40)).max(10).default([]),
});
export type RecommendationDraft = z.output<typeof recommendationDraftSchema>;

export const recommendationAnswerSchema = z.object({
  recommendations: z.array(recommendationDraftSchema).max(50),
});

export const FEEDBACK_MAX_LENGTH = 5_000;

/** POST /api/recommendations/:id/feedback; 'not interested' is a dismissal. */
export const recommendationFeedbackSchema = z.strictObject({
  action: z.enum(FEEDBACK_ACTIONS),
  rating: z.int().min(1).max(5),
  feedback: z.string().trim().max(FEEDBACK_MAX_LENGTH).optional(),
});
export type RecommendationFeedbackInput = z.infer<typeof recommendationFeedbackSchema>;

/** A row of workflow_recommendations as the API answers it. */
export interface RecommendationRecord extends Omit<RecommendationDraft, 'baseFlowId'> {
  id: string;
  userId: string;
  baseFlowId: string | null;
  status: string;
  userFeedback: string | null;
  feedbackCount: number;
  averageRating: number | null;
  createdAt: string;
  updatedAt: string;
}

/** A row of user_workflow_patterns. */
export interface PatternRecord {
  id: string;
  userId: string;
  patternType: string;
  patternData: { key: string } & Record<string, unknown>;
  frequency: number;
  lastSeen: string;
  createdAt: string;
}

/** A workflow template: a workflow_templates row, or one of the product's built-in workflows. */
export interface TemplateRecord {
  id: string;
  name: string;
  description: string;
  category: string;
  difficulty: string;
  estimatedDuration: number | null;
  templateSteps: unknown[];
  tags: string[];
  usageCount: number;
  averageRating: number;
  isPublic: boolean;
  createdBy: string | null;
  builtin: boolean;
}

/** What a recommendation is to the user: the flow it improves (none: a new workflow) and its title. */
export type RecommendationIdentity = Pick<RecommendationDraft, 'title'> & { baseFlowId: string | null };

/**
 * Two recommendations with this key are the same one: for the same flow (or both for none), with the same
 * title as a person reads it (case, spacing and Unicode form aside).
 */
export function recommendationKey(recommendation: RecommendationIdentity): string {
  const title = recommendation.title.normalize('NFC').toLowerCase().replace(/\s+/g, ' ').trim();
  return `${recommendation.baseFlowId ?? ''}\n${title}`;
}

/**
 * The drafts to list, in their order, without the same recommendation twice: a draft repeating an earlier
 * one, or one of `listed` (those already listed and kept: acted on, so a new look does not replace them).
 */
export function withoutRepeats<T extends RecommendationIdentity>(
  drafts: readonly T[],
  listed: readonly RecommendationIdentity[] = [],
): T[] {
  const seen = new Set(listed.map(recommendationKey));
  return drafts.filter((draft) => {
    const key = recommendationKey(draft);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The status a recommendation takes from feedback: a modification keeps it where it was. */
export function statusAfterFeedback(current: string, action: FeedbackAction): string {
  return action === 'modified' ? current : action;
}

import { z } from 'zod';
import type { StepSnapshot } from './flow';

/** A suggestion for one step, named as the flow named it when the suggestion was made. */
export interface StepSuggestion {
  stepOrder: number;
  stepName: string;
  suggestion: string;
}

/** What a model must answer when asked to improve a flow; anything else is refused. */
export const flowSuggestionsSchema = z.object({
  suggestions: z
    .array(
      z.object({
        stepOrder: z.int().min(1),
        stepName: z.string(),
        suggestion: z.string().trim().min(1),
      }),
    )
    .max(500),
  strategicRecommendation: z.string().trim().min(1),
});

export type FlowSuggestions = z.infer<typeof flowSuggestionsSchema>;

/** The flow as it was when the suggestions were made, so they can be read against the steps they judged. */
export interface FlowStructure {
  name: string;
  description: string;
  steps: StepSnapshot[];
}

/** A row of ai_suggestions as GET /api/flows/:flowId/suggestions lists it. */
export interface SuggestionRecord {
  id: string;
  flowId: string;
  flowStructure: FlowStructure;
  suggestions: StepSuggestion[];
  strategicRecommendation: string;
  createdAt: string;
}

/**
 * What a flow's own history says about it. Facts name the step by id (it survives renames and
 * reordering) and by the order it had, for steps deleted since.
 */
export interface FlowReview {
  flow: { name: string; description: string };
  steps: StepSnapshot[];
  /** Model calls of the flow that ended, as its request log lists them, newest first. */
  requests: Array<{
    stepId: string | null;
    stepOrder: number | null;
    success: boolean;
    answer: string | null;
    errorMessage: string | null;
  }>;
  /** Results the user rewrote (ResultEdited with a changed text), newest first. */
  edits: Array<{ stepId: string | null; stepOrder: number | null; before: string; after: string }>;
  /** Results the user deleted, newest first. */
  rejectedIdeas: Array<{
    stepId: string | null;
    stepOrder: number | null;
    label: string | null;
    content: string;
  }>;
  /** Per step, over every execution: results kept and how many of them are approved. */
  resultCounts: Array<{ stepId: string; total: number; approved: number }>;
}

/** The step a fact is about: by id while the step exists, else by the order it had. */
export function stepOfFact(
  steps: readonly StepSnapshot[],
  fact: { stepId: string | null; stepOrder: number | null },
): StepSnapshot | undefined {
  return (
    steps.find((step) => step.id === fact.stepId) ??
    (fact.stepId === null ? steps.find((step) => step.order === fact.stepOrder) : undefined)
  );
}

import type { DetectedPattern } from '../domain/workflow-patterns';
import {
  MAX_RECOMMENDATIONS,
  type RecommendationDraft,
  recommendationAnswerSchema,
  recommendationDraftSchema,
  withoutRepeats,
} from '../domain/workflow-recommendations';
import { parseJsonAnswer } from './json-answer';
import type { ModelProvider } from './model-provider';
import { shorten } from './offline-answer';
import {
  offlineWorkflowRecommendations,
  type RecommendationGrounds,
} from './offline-workflow-recommendations';
import { modelJsonSchemaOf } from './structured-output';

const INSTRUCTION = [
  "You recommend improvements to a user's multi-step AI prompt workflows (flows). Each step is one prompt;",
  "[[step-N]] in a prompt stands for the results of the flow's step N. From the user's flows, their history and",
  'the patterns detected in them, recommend at most 8 concrete changes. Each recommendation is a workflow the',
  'user can create as a new flow: give its full steps (order 1, 2, ...; complete prompts; outputMode single or',
  'multiple) and the reasoning of each step. Set baseFlowId to the id of the flow it improves, or an empty string for a',
  'new workflow. Name the flows and steps it comes from in the description. Types: template (reuse of steps the user',
  'repeats), optimization (better prompts or structure), automation (less manual work per run), enhancement',
  '(a new capability). estimatedTimeReduction is in minutes per run. Write in the language of the flows.',
].join(' ');

/** What the model is asked to answer: the very shape its answer is checked against. */
const SCHEMA = modelJsonSchemaOf(recommendationAnswerSchema);

const PROMPT_EXCERPT = 600;

function describePattern(pattern: DetectedPattern): string {
  switch (pattern.type) {
    case 'repeated_step_shape':
      return `- Step "${pattern.data.stepName}" (${pattern.data.outputMode}) is repeated in: ${pattern.data.occurrences.map((o) => `"${o.flowName}" step ${o.stepOrder}`).join(', ')}`;
    case 'reworked_step': {
      const { flowName, stepOrder, stepName, edits, rejections, latestEdit, latestRejection } = pattern.data;
      const details = [
        latestEdit
          ? `latest edit from "${shorten(latestEdit.before, 200)}" to "${shorten(latestEdit.after, 200)}"`
          : null,
        latestRejection ? `latest rejected: "${shorten(latestRejection, 200)}"` : null,
      ].filter((d) => d !== null);
      return `- "${flowName}" step ${stepOrder} "${stepName}": ${edits} results edited, ${rejections} rejected${details.length ? `; ${details.join('; ')}` : ''}`;
    }
    case 'rerun_single_step':
      return `- "${pattern.data.flowName}" step ${pattern.data.stepOrder} "${pattern.data.stepName}" (single output) was re-run ${pattern.data.reruns} times within executions (${pattern.data.runs} runs)`;
    case 'unused_flow':
      return `- "${pattern.data.flowName}" (${pattern.data.stepCount} steps) has never been run`;
    case 'long_flow':
      return `- "${pattern.data.flowName}" is long: ${pattern.data.stepCount} steps`;
    default: {
      const unknown: never = pattern;
      return String(unknown);
    }
  }
}

/** The user's flows, their history and the detected patterns, as the model is told them. */
function recommendationsPrompt(grounds: RecommendationGrounds): string {
  const flows = grounds.flows.map((flow) => {
    const steps = flow.steps.map((step) => {
      const history = flow.stepHistory.find((h) => h.stepId === step.id);
      const counts = history
        ? `; runs ${history.runs}, re-runs ${history.reruns}, edits ${history.edits}, rejected ${history.rejections}`
        : '';
      return `#### Step ${step.order}: ${step.name} (${step.outputMode}${counts})\n${shorten(step.systemPrompt, PROMPT_EXCERPT) || '(empty prompt)'}`;
    });
    return [
      `### Flow "${flow.name}" (id ${flow.id}; ${flow.executions} executions)`,
      flow.description,
      ...steps,
    ].join('\n');
  });
  return [
    `## Flows\n${flows.length > 0 ? flows.join('\n\n') : '(the user has no flows yet)'}`,
    `## Detected patterns\n${grounds.patterns.length > 0 ? grounds.patterns.map(describePattern).join('\n') : '(none)'}`,
  ].join('\n\n');
}

/**
 * The offline model's drafts, held to the schema a model's answer is (and stored recommendations are
 * answered with): one made from steps Workflow JSON cannot hold (a prompt over 20,000 characters, more
 * than 20 steps) is left out instead of being stored, which would break every later answer listing it.
 */
function expressible(drafts: RecommendationDraft[]): RecommendationDraft[] {
  return drafts.flatMap((draft) => {
    const checked = recommendationDraftSchema.safeParse(draft);
    return checked.success ? [checked.data] : [];
  });
}

/**
 * Recommendations for a user's flows, none twice. The offline model makes them from the detected patterns
 * directly; a real model is asked in JSON mode, its answer validated, and a base flow it names kept only when
 * it is one of the user's flows.
 */
export async function generateWorkflowRecommendations(
  provider: ModelProvider,
  grounds: RecommendationGrounds,
  signal?: AbortSignal,
): Promise<RecommendationDraft[]> {
  if (provider.kind === 'offline')
    return withoutRepeats(expressible(offlineWorkflowRecommendations(grounds)));
  const stream = provider.stream({
    system: INSTRUCTION,
    prompt: recommendationsPrompt(grounds),
    json: { schema: SCHEMA },
    ...(signal ? { signal } : {}),
  });
  const answer = await stream.final;
  const flowIds = new Set(grounds.flows.map((flow) => flow.id));
  const drafts = parseJsonAnswer(
    answer.text,
    recommendationAnswerSchema,
    'recommendations',
  ).recommendations.map((draft) => ({
    ...draft,
    baseFlowId: draft.baseFlowId !== null && flowIds.has(draft.baseFlowId) ? draft.baseFlowId : null,
  }));
  // A model may give the same recommendation twice: once is enough.
  return withoutRepeats(drafts).slice(0, MAX_RECOMMENDATIONS);
}

import {
  type FlowReview,
  type FlowSuggestions,
  flowSuggestionsSchema,
  stepOfFact,
} from '../domain/flow-suggestions';
import { parseJsonAnswer } from './json-answer';
import type { ModelProvider } from './model-provider';
import { shorten } from './offline-answer';
import { offlineFlowSuggestions } from './offline-flow-suggestions';
import { modelJsonSchemaOf } from './structured-output';

const INSTRUCTION = [
  'You review a multi-step AI prompt workflow: each step has a prompt, and [[step-N]] or [[name]] in a prompt',
  'stands for the results of an earlier step. Using the workflow and its history (requests, failures, results',
  'the user edited or rejected), give one concrete suggestion per step to improve its prompt or configuration,',
  'and one strategic recommendation (markdown) for the workflow as a whole. Ground every point in what the',
  'workflow shows. Write in the language of the prompts.',
].join(' ');

/** What the model is asked to answer: the very shape its answer is checked against. */
const SCHEMA = modelJsonSchemaOf(flowSuggestionsSchema);

// The history is evidence, not the point: a few recent items of each kind are enough and keep the prompt small.
const HISTORY_ITEMS = 12;
const EXCERPT = 400;

const stepTitle = (review: FlowReview, fact: { stepId: string | null; stepOrder: number | null }) => {
  const step = stepOfFact(review.steps, fact);
  if (step) return `Step ${step.order} (${step.name})`;
  return fact.stepOrder === null ? 'A deleted step' : `Step ${fact.stepOrder} (deleted since)`;
};

/** The flow and its history as the model is told them. */
function flowSuggestionsPrompt(review: FlowReview): string {
  const { flow, steps } = review;
  const sections = [`# Workflow: ${flow.name}\n${flow.description}`];
  const byId = new Map(steps.map((s) => [s.id, s]));
  sections.push(
    `## Steps\n${steps
      .map((step) => {
        const details = [`output mode: ${step.outputMode}`];
        const sources = step.inputSources.map((id) => byId.get(id)).filter((s) => s !== undefined);
        if (sources.length > 0)
          details.push(`input sources: ${sources.map((s) => `step ${s.order}`).join(', ')}`);
        if (step.outputMode === 'multiple_choice') details.push(`choices: ${step.choices.join(' | ')}`);
        if (step.outputMode === 'loop') details.push(`iterations: ${step.maxLoopIterations}`);
        if (step.requiresUserInput) details.push('requires user input');
        const counts = review.resultCounts.find((c) => c.stepId === step.id);
        if (counts) details.push(`results: ${counts.total}, approved: ${counts.approved}`);
        return `### Step ${step.order}: ${step.name} (${details.join('; ')})\n${step.systemPrompt.trim() || '(empty prompt)'}`;
      })
      .join('\n\n')}`,
  );
  const requests = review.requests.slice(0, HISTORY_ITEMS);
  if (requests.length > 0) {
    sections.push(
      `## Recent requests (newest first)\n${requests
        .map((r) =>
          r.success
            ? `- ${stepTitle(review, r)} answered: ${shorten(r.answer ?? '', EXCERPT)}`
            : `- ${stepTitle(review, r)} FAILED: ${shorten(r.errorMessage ?? 'no message', EXCERPT)}`,
        )
        .join('\n')}`,
    );
  }
  const edits = review.edits.slice(0, HISTORY_ITEMS);
  if (edits.length > 0) {
    sections.push(
      `## Results the user edited (newest first)\n${edits
        .map(
          (e) =>
            `- ${stepTitle(review, e)}\n  before: ${shorten(e.before, EXCERPT)}\n  after: ${shorten(e.after, EXCERPT)}`,
        )
        .join('\n')}`,
    );
  }
  const rejected = review.rejectedIdeas.slice(0, HISTORY_ITEMS);
  if (rejected.length > 0) {
    sections.push(
      `## Results the user rejected (newest first)\n${rejected
        .map(
          (r) => `- ${stepTitle(review, r)}${r.label ? ` · ${r.label}` : ''}: ${shorten(r.content, EXCERPT)}`,
        )
        .join('\n')}`,
    );
  }
  return sections.join('\n\n');
}

/** Keeps one suggestion per step of the flow, in step order, under the step's own name. */
function onTheFlow(review: FlowReview, answer: FlowSuggestions): FlowSuggestions {
  const suggestions = review.steps
    .map((step) => {
      const said = answer.suggestions
        .filter((s) => s.stepOrder === step.order)
        .map((s) => s.suggestion.trim());
      return { stepOrder: step.order, stepName: step.name, suggestion: said.join('\n\n') };
    })
    .filter((s) => s.suggestion !== '');
  return { suggestions, strategicRecommendation: answer.strategicRecommendation.trim() };
}

/**
 * Per-step suggestions and a strategic recommendation for a flow. The offline model makes them from
 * the flow's facts directly; a real model is asked in JSON mode and its answer validated.
 */
export async function generateFlowSuggestions(
  provider: ModelProvider,
  review: FlowReview,
  signal?: AbortSignal,
): Promise<FlowSuggestions> {
  if (provider.kind === 'offline') return offlineFlowSuggestions(review);
  const stream = provider.stream({
    system: INSTRUCTION,
    prompt: flowSuggestionsPrompt(review),
    json: { schema: SCHEMA },
    ...(signal ? { signal } : {}),
  });
  const answer = await stream.final;
  return onTheFlow(review, parseJsonAnswer(answer.text, flowSuggestionsSchema, 'suggestions'));
}

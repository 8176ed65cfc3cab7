import { detectLabels } from '../domain/execution/prompt';
import type { StepSnapshot } from '../domain/flow';
import { type FlowReview, type FlowSuggestions, stepOfFact } from '../domain/flow-suggestions';
import { OFFLINE_MARKER, shorten } from './offline-answer';

/** What the flow's own history says of one step, each finding a sentence and a weight for ranking. */
interface Finding {
  weight: number;
  text: string;
}

const STEP_BY_ORDER = /^step[-_](\d+)$/i;
const SHORT_PROMPT = 40;

const quote = (text: string, max = 80) => `"${shorten(text, max)}"`;
const times = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function factsOf<T extends { stepId: string | null; stepOrder: number | null }>(
  review: FlowReview,
  step: StepSnapshot,
  facts: readonly T[],
): T[] {
  return facts.filter((fact) => stepOfFact(review.steps, fact)?.id === step.id);
}

function findingsFor(review: FlowReview, step: StepSnapshot): Finding[] {
  const findings: Finding[] = [];
  const earlier = review.steps.filter((s) => s.order < step.order);
  const labels = detectLabels(step.systemPrompt);

  if (step.systemPrompt.trim() === '') {
    findings.push({ weight: 5, text: 'Its prompt is empty: say what this step must produce.' });
  } else if (step.systemPrompt.trim().length < SHORT_PROMPT) {
    findings.push({
      weight: 1,
      text: `Its prompt is short (${quote(step.systemPrompt, SHORT_PROMPT)}): name the audience, the format and the length of the answer.`,
    });
  }

  const previous = earlier.at(-1);
  if (previous && labels.length === 0 && step.inputSources.length === 0) {
    findings.push({
      weight: 4,
      text: `It uses nothing from earlier steps: write [[step-${previous.order}]] where it should build on the answer of "${previous.name}".`,
    });
  }
  for (const label of labels) {
    const byOrder = STEP_BY_ORDER.exec(label);
    if (byOrder && !earlier.some((s) => s.order === Number(byOrder[1]))) {
      findings.push({
        weight: 4,
        text: `[[${label}]] points at no earlier step, so the model sees the placeholder instead of a result.`,
      });
    }
  }

  const counts = review.resultCounts.find((c) => c.stepId === step.id);
  if (step.outputMode === 'multiple' && counts && counts.total > 0 && counts.approved === 0) {
    findings.push({
      weight: 3,
      text: `None of its ${times(counts.total, 'alternative', 'alternatives')} has been approved: approve the ones later steps should build on, or make it a single output step if one answer is enough.`,
    });
  }
  if (step.outputMode === 'multiple_choice' && step.choices.length < 2) {
    findings.push({
      weight: 3,
      text: 'It is a choice step with fewer than 2 choices, so there is nothing to choose: add the options.',
    });
  }
  if (step.outputMode === 'loop' && step.maxLoopIterations <= 1) {
    findings.push({
      weight: 2,
      text: 'It is a loop that runs once: raise its iterations (3 to 5 usually) or make it a single output step.',
    });
  }

  const edits = factsOf(review, step, review.edits);
  if (edits[0]) {
    findings.push({
      weight: 2 + edits.length,
      text: `Its results were edited ${times(edits.length, 'time', 'times')}, latest from ${quote(edits[0].before)} to ${quote(edits[0].after)}: put what you changed into the prompt so the first answer needs no edit.`,
    });
  }
  const rejected = factsOf(review, step, review.rejectedIdeas);
  if (rejected[0]) {
    findings.push({
      weight: 2 + rejected.length,
      text: `${times(rejected.length, 'result was', 'results were')} rejected, latest ${quote(rejected[0].content)}: tell the prompt what to avoid.`,
    });
  }
  const requests = factsOf(review, step, review.requests);
  const failures = requests.filter((r) => !r.success);
  if (failures[0]) {
    findings.push({
      weight: 3 + failures.length,
      text: `${times(failures.length, 'run', 'runs')} of ${requests.length} failed, latest with ${quote(failures[0].errorMessage ?? 'no message', 160)}.`,
    });
  }
  return findings;
}

function suggestionFor(review: FlowReview, step: StepSnapshot, findings: Finding[]): string {
  if (findings.length > 0) return `${OFFLINE_MARKER} ${findings.map((f) => f.text).join(' ')}`;
  // Whether it ran is read from its results, which the executions keep: the request log can be cleared.
  const results = review.resultCounts.find((c) => c.stepId === step.id)?.total ?? 0;
  const history =
    results === 0
      ? 'It has not run yet'
      : `Its ${times(results, 'result shows', 'results show')} no failures, edits or rejections`;
  return `${OFFLINE_MARKER} ${history}. To sharpen it, say in the prompt what shape the answer takes (a list, a table, a length).`;
}

function strategicRecommendation(
  review: FlowReview,
  ranked: Array<{ step: StepSnapshot; findings: Finding[] }>,
) {
  const { flow, steps, requests, edits, rejectedIdeas } = review;
  const failed = requests.filter((r) => !r.success).length;
  const lines = [
    `${OFFLINE_MARKER} **${flow.name}**: ${times(steps.length, 'step', 'steps')}${steps.length > 0 ? ` (${steps.map((s) => s.name).join(' → ')})` : ''}.`,
    '',
    `- History: ${times(requests.length, 'model call', 'model calls')} (${failed} failed), ${times(edits.length, 'edited result', 'edited results')}, ${times(rejectedIdeas.length, 'rejected idea', 'rejected ideas')}.`,
  ];
  const [first] = ranked;
  if (steps.length === 0) {
    lines.push('- Start with the steps: add a first step that states the task of the flow.');
  } else if (first && first.findings.length > 0) {
    const top = [...first.findings].sort((a, b) => b.weight - a.weight)[0]!;
    lines.push(`- Start with Step ${first.step.order} "${first.step.name}": ${top.text}`);
    const others = ranked.slice(1).filter((r) => r.findings.length > 0);
    if (others.length > 0) {
      lines.push(`- Then: ${others.map((r) => `Step ${r.step.order} "${r.step.name}"`).join(', ')}.`);
    }
  } else {
    lines.push(
      '- Nothing in the runs so far calls for a change; run the flow with real input to learn more.',
    );
  }
  if (edits.length + rejectedIdeas.length > 0) {
    lines.push(
      '- Edits and rejections are the clearest signal of what the prompts miss: each fixed in a prompt saves that work on every later run.',
    );
  }
  lines.push(
    '',
    '_Made from the flow and its history by the offline model; add a Gemini API key for suggestions written by a model._',
  );
  return lines.join('\n');
}

/**
 * The offline model's suggestions: deterministic, made only from what the flow itself shows (its
 * prompts, references, output modes, and its runs, edits, rejections and failures).
 */
export function offlineFlowSuggestions(review: FlowReview): FlowSuggestions {
  const steps = [...review.steps].sort((a, b) => a.order - b.order);
  const judged = steps.map((step) => ({ step, findings: findingsFor(review, step) }));
  const weight = (findings: Finding[]) => findings.reduce((sum, f) => sum + f.weight, 0);
  const ranked = [...judged].sort(
    (a, b) => weight(b.findings) - weight(a.findings) || a.step.order - b.step.order,
  );
  return {
    suggestions: judged.map(({ step, findings }) => ({
      stepOrder: step.order,
      stepName: step.name,
      suggestion: suggestionFor(review, step, findings),
    })),
    strategicRecommendation: strategicRecommendation(review, ranked),
  };
}

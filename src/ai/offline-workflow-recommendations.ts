import type { StepSnapshot } from '../domain/flow';
import type { DetectedPattern, FlowHistory } from '../domain/workflow-patterns';
import {
  MAX_RECOMMENDATIONS,
  type Priority,
  type RecommendationDraft,
  type RecommendedStep,
} from '../domain/workflow-recommendations';
import { stepReference, type WorkflowJsonInput } from '../domain/workflow-json';
import { OFFLINE_MARKER, shorten } from './offline-answer';

/** What recommendations are made from: the user's flows with their history, and what they show. */
export interface RecommendationGrounds {
  flows: FlowHistory[];
  patterns: DetectedPattern[];
  /** Workflows the product ships with, offered to a user who has no flows yet. */
  builtinWorkflows: WorkflowJsonInput[];
}

const OFFLINE_TAG = 'offline-model';
const OFFLINE_NOTE =
  'Made from your flows by the offline model; add a Gemini API key for recommendations written by a model.';
const STEP_REFERENCE = /\[\[step([-_])(\d+)\]\]/gi;

const quote = (text: string, max = 60) => `"${shorten(text, max)}"`;
const times = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const described = (text: string) => `${OFFLINE_MARKER} ${text} ${OFFLINE_NOTE}`;

/** A step as a recommendation shows and creates it: any of its configuration left out is the default. */
type StepInRecommendation = Pick<RecommendedStep, 'name' | 'systemPrompt' | 'outputMode'> &
  Partial<Pick<RecommendedStep, 'requiresUserInput' | 'inputSources' | 'choices' | 'maxLoopIterations'>>;

/** A new step the recommendation adds: one answer, no input of its own, reading no step's result as input. */
const newStep = (order: number, name: string, systemPrompt: string, reasoning: string): RecommendedStep => ({
  order,
  name,
  systemPrompt,
  outputMode: 'single',
  requiresUserInput: false,
  inputSources: [],
  choices: [],
  maxLoopIterations: 1,
  reasoning,
});

const asStep = (step: StepInRecommendation, order: number, reasoning: string): RecommendedStep => ({
  order,
  name: step.name,
  systemPrompt: step.systemPrompt.trim() || step.name,
  outputMode: step.outputMode,
  requiresUserInput: step.requiresUserInput ?? false,
  inputSources: step.inputSources ?? [],
  // A blank choice is an empty row of the step editor, not a choice (Workflow JSON has none).
  choices: (step.choices ?? []).filter((choice) => choice.trim() !== ''),
  maxLoopIterations: step.maxLoopIterations ?? 1,
  reasoning,
});

/**
 * A step of the user's flow as it stands in a recommendation, whole: its output mode, choices, loop count,
 * required input and input sources, those as 'step-N' of the orders the steps take in the recommendation
 * (`placed`: step id -> order there; a source left out of the recommendation is dropped).
 */
const flowStep = (
  step: StepSnapshot,
  order: number,
  reasoning: string,
  placed: ReadonlyMap<string, number>,
) =>
  asStep(
    {
      ...step,
      inputSources: step.inputSources
        .map((id) => placed.get(id))
        .filter((source) => source !== undefined && source < order)
        .map((source) => stepReference(source!)),
    },
    order,
    reasoning,
  );

/** Where each step lands when `steps` are placed in a recommendation from order `first` on. */
const placement = (steps: readonly StepSnapshot[], first = 1) =>
  new Map(steps.map((step, index) => [step.id, index + first]));

const kept = 'Kept as it is in your flow.';

/** [[step-N]] placeholders moved by `shift` orders, for steps that moved down the flow. */
const shiftReferences = (prompt: string, shift: number) =>
  prompt.replace(
    STEP_REFERENCE,
    (_, separator: string, order: string) => `[[step${separator}${Number(order) + shift}]]`,
  );

function flowOf(grounds: RecommendationGrounds, flowId: string) {
  return grounds.flows.find((flow) => flow.id === flowId);
}

function reworkedStep(
  grounds: RecommendationGrounds,
  pattern: Extract<DetectedPattern, { type: 'reworked_step' }>,
): RecommendationDraft | null {
  const flow = flowOf(grounds, pattern.data.flowId);
  if (!flow) return null;
  const { edits, rejections, latestEdit, latestRejection, stepName, stepOrder } = pattern.data;
  const rework = edits + rejections;
  const lessons = [
    latestEdit ? `Write it the way it was last corrected: ${quote(latestEdit.after, 200)}.` : null,
    latestRejection ? `Avoid answers like this rejected one: ${quote(latestRejection, 200)}.` : null,
  ].filter((line) => line !== null);
  const evidence = [
    edits > 0 ? times(edits, 'result was edited', 'results were edited') : null,
    rejections > 0 ? times(rejections, 'result was rejected', 'results were rejected') : null,
  ]
    .filter((part) => part !== null)
    .join(' and ');
  return {
    recommendationType: 'optimization',
    title: `Sharpen step "${stepName}" of "${flow.name}"`,
    description: described(
      `In "${flow.name}", ${evidence} of Step ${stepOrder} "${stepName}". The corrections belong in its prompt, so the first answer needs no rework.`,
    ),
    category: 'productivity',
    priority: rework >= 4 ? 'high' : 'medium',
    confidence: Math.min(95, 60 + rework * 8),
    baseFlowId: flow.id,
    recommendedSteps: flow.steps.map((step, index) =>
      step.id === pattern.data.stepId
        ? {
            ...flowStep(
              step,
              index + 1,
              `${evidence}; the prompt now says what the corrections said.`,
              placement(flow.steps),
            ),
            systemPrompt: [step.systemPrompt.trim() || step.name, ...lessons].join('\n\n'),
          }
        : flowStep(step, index + 1, kept, placement(flow.steps)),
    ),
    benefits: [`No more rework of "${stepName}" on every run`, 'Later steps build on a better first answer'],
    estimatedTimeReduction: Math.min(60, rework * 5),
    implementationComplexity: 'low',
    tags: ['prompt', 'quality', OFFLINE_TAG],
  };
}

function rerunSingleStep(
  grounds: RecommendationGrounds,
  pattern: Extract<DetectedPattern, { type: 'rerun_single_step' }>,
): RecommendationDraft | null {
  const flow = flowOf(grounds, pattern.data.flowId);
  if (!flow) return null;
  const { stepName, stepOrder, reruns, runs } = pattern.data;
  return {
    recommendationType: 'automation',
    title: `Get alternatives from "${stepName}" in one run`,
    description: described(
      `Step ${stepOrder} "${stepName}" of "${flow.name}" gives one answer, and it was run again ${times(reruns, 'time', 'times')} (${runs} runs in all) to get another. As a multiple-output step it gives several alternatives at once, and you approve the ones to keep.`,
    ),
    category: 'automation',
    priority: reruns >= 4 ? 'high' : 'medium',
    confidence: Math.min(90, 65 + reruns * 5),
    baseFlowId: flow.id,
    recommendedSteps: flow.steps.map((step, index) =>
      step.id === pattern.data.stepId
        ? {
            ...flowStep(
              step,
              index + 1,
              `Run ${runs} times for ${runs - reruns} executions: alternatives replace the re-runs.`,
              placement(flow.steps),
            ),
            outputMode: 'multiple',
            choices: [],
            maxLoopIterations: 1,
            systemPrompt: `${step.systemPrompt.trim() || step.name}\n\nGive 3 distinct alternatives.`,
          }
        : flowStep(step, index + 1, kept, placement(flow.steps)),
    ),
    benefits: [
      'Several answers side by side instead of one per run',
      'Fewer model calls for the same choice',
    ],
    estimatedTimeReduction: Math.min(60, reruns * 2),
    implementationComplexity: 'low',
    tags: ['multiple-output', 'reruns', OFFLINE_TAG],
  };
}

function repeatedShapes(grounds: RecommendationGrounds): RecommendationDraft[] {
  const repeated = grounds.patterns.filter(
    (p): p is Extract<DetectedPattern, { type: 'repeated_step_shape' }> => p.type === 'repeated_step_shape',
  );
  const drafts: RecommendationDraft[] = [];
  const seen = new Set<string>();
  for (const pattern of repeated) {
    const [first] = pattern.data.occurrences;
    const flow = first && flowOf(grounds, first.flowId);
    if (!flow) continue;
    // The template is every step of that flow that other flows repeat: shapes shared by the same flows
    // make one template, not one each.
    const sharedIds = new Set(
      repeated.flatMap((p) => p.data.occurrences.filter((o) => o.flowId === flow.id).map((o) => o.stepId)),
    );
    const steps = flow.steps.filter((step) => sharedIds.has(step.id));
    const signature = `${flow.id}:${steps.map((s) => s.id).join(',')}`;
    if (seen.has(signature)) continue;
    seen.add(signature);
    const flowNames = [...new Set(pattern.data.occurrences.map((o) => `"${o.flowName}"`))];
    const count = pattern.data.occurrences.length;
    drafts.push({
      recommendationType: 'template',
      title: `Make a template of ${steps.map((s) => `"${s.name}"`).join(', ')}`,
      description: described(
        `Step "${pattern.data.stepName}" (${pattern.data.outputMode} output) appears in ${count} of your flows: ${flowNames.join(', ')}. A template keeps the steps you build again and again in one place.`,
      ),
      category: 'productivity',
      priority: count >= 3 ? 'high' : 'medium',
      confidence: Math.min(90, 70 + (count - 2) * 5),
      baseFlowId: flow.id,
      recommendedSteps: steps.map((step, index) =>
        flowStep(step, index + 1, `Found in ${flowNames.join(', ')}.`, placement(steps)),
      ),
      benefits: ['Start a new flow from steps you already trust', 'One place to improve a repeated prompt'],
      estimatedTimeReduction: 5 * count,
      implementationComplexity: 'low',
      tags: ['template', 'reuse', OFFLINE_TAG],
    });
  }
  return drafts;
}

function unusedFlow(
  grounds: RecommendationGrounds,
  pattern: Extract<DetectedPattern, { type: 'unused_flow' }>,
): RecommendationDraft | null {
  const flow = flowOf(grounds, pattern.data.flowId);
  if (!flow) return null;
  const brief = newStep(
    1,
    `Brief for ${shorten(flow.name, 120)}`,
    `Read the user's input for "${flow.name}" (${shorten(flow.description, 300)}) and restate it as a short brief: the goal, the audience, the material given and any constraints. Ask for nothing; note what is missing.`,
    'A first step that takes your input makes the flow ready to run on real material.',
  );
  return {
    recommendationType: 'enhancement',
    title: `Give "${flow.name}" a starting brief`,
    description: described(
      `"${flow.name}" has ${times(pattern.data.stepCount, 'step', 'steps')} but has never been run. Starting it with a brief of your input gives every step the same, clear material.`,
    ),
    category: 'other',
    priority: 'low',
    confidence: 60,
    baseFlowId: flow.id,
    recommendedSteps: [
      brief,
      ...flow.steps.map((step, index) => ({
        ...flowStep(
          step,
          index + 2,
          'Moved down one place; its references follow it.',
          placement(flow.steps, 2),
        ),
        systemPrompt: shiftReferences(step.systemPrompt.trim() || step.name, 1),
      })),
    ],
    benefits: ['Ready to run on real input', 'Every step starts from the same brief'],
    estimatedTimeReduction: 5,
    implementationComplexity: 'low',
    tags: ['input', 'first-run', OFFLINE_TAG],
  };
}

function longFlow(
  grounds: RecommendationGrounds,
  pattern: Extract<DetectedPattern, { type: 'long_flow' }>,
): RecommendationDraft | null {
  const flow = flowOf(grounds, pattern.data.flowId);
  if (!flow) return null;
  const half = Math.ceil(flow.steps.length / 2);
  const firstPart = flow.steps.slice(0, half);
  const last = firstPart.at(-1)!;
  return {
    recommendationType: 'optimization',
    title: `Split "${flow.name}" into two shorter flows`,
    description: described(
      `"${flow.name}" has ${pattern.data.stepCount} steps. Its first ${half} steps (up to "${last.name}") make a flow of their own that ends in a hand-over summary; the rest can start from that summary.`,
    ),
    category: 'productivity',
    priority: pattern.data.stepCount >= 10 ? 'medium' : 'low',
    confidence: 55,
    baseFlowId: flow.id,
    recommendedSteps: [
      ...firstPart.map((step, index) => flowStep(step, index + 1, kept, placement(firstPart))),
      newStep(
        half + 1,
        'Hand-over summary',
        `Summarise [[step-${half}]] as the starting material for the next part of "${flow.name}": the decisions made, the facts to keep, and the open questions.`,
        `Lets the remaining ${flow.steps.length - half} steps run as their own flow.`,
      ),
    ],
    benefits: ['Shorter runs that are easier to review', 'Each part can be re-run on its own'],
    estimatedTimeReduction: 10,
    implementationComplexity: 'medium',
    tags: ['structure', OFFLINE_TAG],
  };
}

/** When the history shows nothing to fix: a review step on the flow made last. */
function reviewStep(flow: FlowHistory): RecommendationDraft {
  const lastOrder = flow.steps.length;
  return {
    recommendationType: 'enhancement',
    title: `Add a review step to "${flow.name}"`,
    description: described(
      `Nothing in the runs of your flows calls for a change yet. A last step that checks the answer of "${flow.steps.at(-1)!.name}" catches gaps before you use it.`,
    ),
    category: 'analysis',
    priority: 'low',
    confidence: 50,
    baseFlowId: flow.id,
    recommendedSteps: [
      ...flow.steps.map((step, index) => flowStep(step, index + 1, kept, placement(flow.steps))),
      newStep(
        lastOrder + 1,
        'Review',
        `Review [[step-${lastOrder}]] for "${flow.name}": list what is wrong, missing or unclear, then give the improved version.`,
        'A check before the answer is used.',
      ),
    ],
    benefits: ['Fewer mistakes reach the final answer'],
    estimatedTimeReduction: 5,
    implementationComplexity: 'low',
    tags: ['review', 'quality', OFFLINE_TAG],
  };
}

function builtinTemplate(workflow: WorkflowJsonInput): RecommendationDraft {
  return {
    recommendationType: 'template',
    title: `Start from the template "${workflow.name}"`,
    description: described(
      `You have no flows yet. "${workflow.name}" is a ready ${times(workflow.steps.length, 'step', 'steps')} workflow: ${shorten(workflow.description ?? '', 300)}`,
    ),
    category: 'business',
    priority: 'medium',
    confidence: 50,
    baseFlowId: null,
    recommendedSteps: workflow.steps.map((step, index) =>
      asStep(step, index + 1, 'From the built-in template.'),
    ),
    benefits: ['A working flow in one click', 'An example of steps that build on each other'],
    estimatedTimeReduction: 15,
    implementationComplexity: 'low',
    tags: ['template', 'getting-started', OFFLINE_TAG],
  };
}

const PRIORITY_RANK: Record<Priority, number> = { urgent: 0, high: 1, medium: 2, low: 3 };

/**
 * The offline model's recommendations: deterministic, each made from a pattern of the user's own flows
 * (naming the flows and steps it comes from), most pressing first.
 */
export function offlineWorkflowRecommendations(grounds: RecommendationGrounds): RecommendationDraft[] {
  const drafts: RecommendationDraft[] = [...repeatedShapes(grounds)];
  for (const pattern of grounds.patterns) {
    const draft =
      pattern.type === 'reworked_step'
        ? reworkedStep(grounds, pattern)
        : pattern.type === 'rerun_single_step'
          ? rerunSingleStep(grounds, pattern)
          : pattern.type === 'unused_flow'
            ? unusedFlow(grounds, pattern)
            : pattern.type === 'long_flow'
              ? longFlow(grounds, pattern)
              : null;
    if (draft) drafts.push(draft);
  }
  if (drafts.length === 0) {
    const withSteps = grounds.flows.filter((flow) => flow.steps.length > 0);
    const latest = withSteps.at(-1);
    if (latest) drafts.push(reviewStep(latest));
    else drafts.push(...grounds.builtinWorkflows.map(builtinTemplate));
  }
  return drafts
    .map((draft, index) => ({ draft, index }))
    .sort(
      (a, b) =>
        PRIORITY_RANK[a.draft.priority] - PRIORITY_RANK[b.draft.priority] ||
        b.draft.confidence - a.draft.confidence ||
        a.index - b.index,
    )
    .slice(0, MAX_RECOMMENDATIONS)
    .map(({ draft }) => draft);
}

import { z } from 'zod';
import { BUILTIN_TEMPLATES } from '../domain/builtin-templates';
import {
  type GeneratedWorkflow,
  generatedWorkflowSchema,
  referencedOrder,
  stepReference,
  WORKFLOW_MAX_STEPS,
  workflowJsonSchema,
} from '../domain/workflow-json';
import { ModelCallError, type ModelProvider } from './model-provider';
import { modelJsonSchemaOf } from './structured-output';

/** What the model is asked to answer: the workflow it proposes, as Gemini's JSON mode takes it. */
export const WORKFLOW_RESPONSE_SCHEMA = modelJsonSchemaOf(generatedWorkflowSchema);

const INSTRUCTION = [
  'You design multi-step AI prompt workflows. Each step is one prompt sent to an AI model; the result of',
  "a step can feed later steps. From the user's description, design a workflow of 3 to 7 steps that",
  'reaches their goal step by step (chain of thought), where a person reviews each result before the next.',
  'Rules:',
  "- Write the name, the description and every prompt in the language of the user's description.",
  '- order is 1, 2, 3, ... in the order the steps run.',
  '- systemPrompt is a complete, specific instruction for that step (role, task, expected format).',
  "- A step uses an earlier step's result by writing [[step-N]] in its systemPrompt (N = that step's order)",
  '  and listing "step-N" in inputSources. Only earlier steps may be referenced.',
  '- outputMode is "multiple" when the step should offer several alternatives for the person to choose',
  '  from, otherwise "single".',
  '- requiresUserInput is true only when the step needs information that only the person can give.',
].join('\n');

/** The built-in templates in outline, as examples of the shape a good workflow takes. */
function templateHints(): string {
  const outlines = BUILTIN_TEMPLATES.map(({ workflow }) => {
    const steps = workflow.steps.map((step) => {
      const sources = step.inputSources?.length ? `, inputSources ${step.inputSources.join(', ')}` : '';
      return `  ${step.order}. ${step.name} (${step.outputMode}${sources})`;
    });
    return [`- ${workflow.name}: ${workflow.description}`, ...steps].join('\n');
  });
  return ['Examples of well-built workflows (take their shape, not their topic):', ...outlines].join('\n');
}

export interface GenerateWorkflowOptions {
  /** Shows the model the built-in templates as examples (the request's includeTemplateHints). */
  includeTemplateHints?: boolean;
  signal?: AbortSignal;
}

/**
 * What a model's answer must hold. Lenient where a model often slips (a missing order or a mode outside
 * the two allowed), since those are put right afterwards; strict where the workflow would be useless.
 */
const answerSchema = z.object({
  name: z.string().trim().min(1),
  description: z.string().trim().default(''),
  steps: z
    .array(
      z.object({
        name: z.string().trim().min(1),
        order: z.number().optional(),
        systemPrompt: z.string().trim().min(1),
        outputMode: z.enum(['single', 'multiple']).catch('single'),
        requiresUserInput: z.boolean().catch(false),
        inputSources: z.array(z.string()).catch([]),
      }),
    )
    .min(1),
});

/** A JSON answer sometimes comes wrapped in a Markdown fence or in a `{workflow: ...}` object. */
function parseAnswer(text: string): unknown {
  const unfenced = text
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  const value = JSON.parse(unfenced) as unknown;
  if (value !== null && typeof value === 'object' && 'workflow' in value && !('steps' in value)) {
    return (value as { workflow: unknown }).workflow;
  }
  return value;
}

/**
 * Steps in their order, numbered 1..n, and references kept only to earlier steps (renumbered with them),
 * so the result is valid Workflow JSON.
 */
function normalise(answer: z.output<typeof answerSchema>): GeneratedWorkflow {
  const ordered = answer.steps
    .map((step, index) => ({ step, index, given: step.order ?? index + 1 }))
    .sort((a, b) => a.given - b.given || a.index - b.index)
    .slice(0, WORKFLOW_MAX_STEPS);
  const newOrderOf = new Map<number, number>();
  ordered.forEach(({ given }, i) => {
    if (!newOrderOf.has(given)) newOrderOf.set(given, i + 1);
  });
  return {
    name: answer.name.slice(0, 200),
    description: (answer.description || answer.name).slice(0, 2_000),
    steps: ordered.map(({ step }, i) => {
      const order = i + 1;
      const sources = step.inputSources
        .map((source) => newOrderOf.get(referencedOrder(source) ?? Number.NaN))
        .filter((earlier): earlier is number => earlier !== undefined && earlier < order);
      return {
        name: step.name.slice(0, 200),
        order,
        systemPrompt: step.systemPrompt,
        outputMode: step.outputMode,
        requiresUserInput: step.requiresUserInput,
        inputSources: [...new Set(sources)].map(stepReference),
      };
    }),
  };
}

const notAWorkflow = (why: string, cause?: unknown) =>
  new ModelCallError(`The model's answer is not a usable workflow (${why}). Try again.`, {
    retryable: true,
    cause,
  });

/**
 * Asks the model (in JSON mode) for a workflow that does what `description` says, and returns it as
 * valid Workflow JSON (steps numbered 1..n, input sources only to earlier steps). A failed call or an
 * answer that is not a workflow is a ModelCallError.
 */
export async function generateWorkflow(
  provider: ModelProvider,
  description: string,
  { includeTemplateHints = false, signal }: GenerateWorkflowOptions = {},
): Promise<GeneratedWorkflow> {
  const answer = await provider.stream({
    system: includeTemplateHints ? `${INSTRUCTION}\n\n${templateHints()}` : INSTRUCTION,
    prompt: description,
    json: { schema: WORKFLOW_RESPONSE_SCHEMA },
    ...(signal ? { signal } : {}),
  }).final;

  let value: unknown;
  try {
    value = parseAnswer(answer.text);
  } catch (error) {
    throw notAWorkflow('not JSON', error);
  }
  const parsed = answerSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw notAWorkflow(`${issue?.path.join('.') || 'answer'}: ${issue?.message ?? 'invalid'}`, parsed.error);
  }
  const workflow = normalise(parsed.data);
  // Normalising makes it valid; checking again guards the rules of Workflow JSON, not the model.
  workflowJsonSchema.parse(workflow);
  return workflow;
}

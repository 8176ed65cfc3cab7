import type { OutputMode, StepSnapshot } from './flow';

/** A step of the Workflow JSON (spec §3): what importing needs to build the same step again. */
export interface WorkflowStepJson {
  name: string;
  order: number;
  systemPrompt: string;
  outputMode: OutputMode;
  requiresUserInput: boolean;
  /** Earlier steps by order, as 'step-N', the way the built-in templates write them. */
  inputSources: string[];
  /** Only for multiple_choice: the options the model picks from. */
  choices?: string[];
  /** Only for loop: how many times the step runs. */
  maxLoopIterations?: number;
}

/** The Workflow JSON of spec §3, the shape an export gives and an import takes. */
export interface WorkflowJson {
  name: string;
  description: string;
  steps: WorkflowStepJson[];
}

export type ExportedStep = Pick<
  StepSnapshot,
  | 'id'
  | 'order'
  | 'name'
  | 'systemPrompt'
  | 'outputMode'
  | 'inputSources'
  | 'choices'
  | 'maxLoopIterations'
  | 'requiresUserInput'
>;

/** 'step-N' names a step by its order, so the reference survives the new ids an import gives. */
export const stepReference = (order: number) => `step-${order}`;

/**
 * A flow as Workflow JSON. Orders are kept as stored rather than renumbered: prompts name earlier steps as
 * [[step-N]] by those very orders. Input sources that no longer name a step of the flow are left out.
 */
export function workflowOf(
  flow: { name: string; description: string },
  steps: readonly ExportedStep[],
): WorkflowJson {
  const orderOf = new Map(steps.map((step) => [step.id, step.order]));
  const sorted = [...steps].sort((a, b) => a.order - b.order);
  return {
    name: flow.name,
    description: flow.description,
    steps: sorted.map((step) => {
      const sources = step.inputSources.flatMap((id) => {
        const order = orderOf.get(id);
        return order === undefined ? [] : [stepReference(order)];
      });
      return {
        name: step.name,
        order: step.order,
        systemPrompt: step.systemPrompt,
        outputMode: step.outputMode,
        requiresUserInput: step.requiresUserInput,
        inputSources: [...new Set(sources)],
        ...(step.outputMode === 'multiple_choice' ? { choices: [...step.choices] } : {}),
        ...(step.outputMode === 'loop' ? { maxLoopIterations: step.maxLoopIterations } : {}),
      };
    }),
  };
}

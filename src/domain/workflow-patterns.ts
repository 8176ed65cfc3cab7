import type { OutputMode, StepSnapshot } from './flow';

/**
 * What a user's own flows and their use say about how they work. Detection is pure: the use
 * is read elsewhere, and a pattern found again on a later look is recognised by its key.
 */

/** What happened to one step over every execution of its flow. */
export interface StepUsage {
  stepId: string;
  /** Successful model calls of the step. */
  runs: number;
  /** Runs beyond the first within the same execution: the user asked again for another answer. */
  reruns: number;
  /** Results the user rewrote. */
  edits: number;
  /** Results the user deleted. */
  rejections: number;
  latestEdit: { before: string; after: string } | null;
  latestRejection: string | null;
}

export interface FlowUsage {
  id: string;
  name: string;
  description: string;
  /** In step order. */
  steps: StepSnapshot[];
  executions: number;
  stepHistory: StepUsage[];
}

export const PATTERN_TYPES = [
  'repeated_step_shape',
  'reworked_step',
  'rerun_single_step',
  'unused_flow',
  'long_flow',
] as const;
export type PatternType = (typeof PATTERN_TYPES)[number];

export interface StepPlace {
  flowId: string;
  flowName: string;
  stepId: string;
  stepOrder: number;
  stepName: string;
}

export type DetectedPattern =
  | {
      type: 'repeated_step_shape';
      key: string;
      data: { stepName: string; outputMode: OutputMode; occurrences: StepPlace[] };
    }
  | {
      type: 'reworked_step';
      key: string;
      data: StepPlace & {
        edits: number;
        rejections: number;
        latestEdit: { before: string; after: string } | null;
        latestRejection: string | null;
      };
    }
  | { type: 'rerun_single_step'; key: string; data: StepPlace & { runs: number; reruns: number } }
  | { type: 'unused_flow'; key: string; data: { flowId: string; flowName: string; stepCount: number } }
  | { type: 'long_flow'; key: string; data: { flowId: string; flowName: string; stepCount: number } };

/** Edits and deletions of one step's results that show its prompt misses something. */
export const REWORK_THRESHOLD = 2;
/** Extra runs of a single-output step, within executions, that show the user wants alternatives. */
export const RERUN_THRESHOLD = 2;
/** Steps from which a flow is long enough to be worth splitting. */
export const LONG_FLOW_STEPS = 6;

/** Step names compared as a person reads them: case, spacing and numbering do not make a step different. */
export function stepShapeName(name: string): string {
  return name
    .toLowerCase()
    .replace(/\d+/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const placeOf = (flow: FlowUsage, step: StepSnapshot): StepPlace => ({
  flowId: flow.id,
  flowName: flow.name,
  stepId: step.id,
  stepOrder: step.order,
  stepName: step.name,
});

function repeatedStepShapes(flows: readonly FlowUsage[]): DetectedPattern[] {
  const byShape = new Map<string, { name: string; outputMode: OutputMode; occurrences: StepPlace[] }>();
  for (const flow of flows) {
    for (const step of flow.steps) {
      const shape = stepShapeName(step.name);
      if (shape === '') continue;
      const key = `${shape}|${step.outputMode}`;
      const entry = byShape.get(key) ?? { name: step.name, outputMode: step.outputMode, occurrences: [] };
      // A shape repeated within one flow is the flow's own structure, not a habit across flows.
      if (!entry.occurrences.some((place) => place.flowId === flow.id)) {
        entry.occurrences.push(placeOf(flow, step));
      }
      byShape.set(key, entry);
    }
  }
  return [...byShape.entries()]
    .filter(([, entry]) => entry.occurrences.length >= 2)
    .map(([key, entry]) => ({
      type: 'repeated_step_shape' as const,
      key: `repeated_step_shape:${key}`,
      data: { stepName: entry.name, outputMode: entry.outputMode, occurrences: entry.occurrences },
    }));
}

function stepPatterns(flow: FlowUsage): DetectedPattern[] {
  const found: DetectedPattern[] = [];
  for (const step of flow.steps) {
    const history = flow.stepHistory.find((h) => h.stepId === step.id);
    if (!history) continue;
    if (history.edits + history.rejections >= REWORK_THRESHOLD) {
      found.push({
        type: 'reworked_step',
        key: `reworked_step:${step.id}`,
        data: {
          ...placeOf(flow, step),
          edits: history.edits,
          rejections: history.rejections,
          latestEdit: history.latestEdit,
          latestRejection: history.latestRejection,
        },
      });
    }
    if (step.outputMode === 'single' && history.reruns >= RERUN_THRESHOLD) {
      found.push({
        type: 'rerun_single_step',
        key: `rerun_single_step:${step.id}`,
        data: { ...placeOf(flow, step), runs: history.runs, reruns: history.reruns },
      });
    }
  }
  return found;
}

/**
 * Every pattern the flows show, in a stable order: habits across flows first, then flow by flow (in
 * the order given) what its steps' history and its shape say.
 */
export function detectWorkflowPatterns(flows: readonly FlowUsage[]): DetectedPattern[] {
  const found = repeatedStepShapes(flows);
  for (const flow of flows) {
    found.push(...stepPatterns(flow));
    const stepCount = flow.steps.length;
    if (stepCount > 0 && flow.executions === 0) {
      found.push({
        type: 'unused_flow',
        key: `unused_flow:${flow.id}`,
        data: { flowId: flow.id, flowName: flow.name, stepCount },
      });
    }
    if (stepCount >= LONG_FLOW_STEPS) {
      found.push({
        type: 'long_flow',
        key: `long_flow:${flow.id}`,
        data: { flowId: flow.id, flowName: flow.name, stepCount },
      });
    }
  }
  return found;
}

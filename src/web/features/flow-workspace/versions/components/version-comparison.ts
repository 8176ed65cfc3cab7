import type { Flow } from '@/lib/flow-query';
import type { Step } from '@/lib/steps-query';
import { type DiffPart, diffText } from '../../../../../domain/execution/text-diff';

/** What a comparison reads of a version: the flow's details and its steps. */
export interface VersionContent {
  flow: Pick<Flow, 'name' | 'description' | 'status'>;
  steps: Step[];
}

/** Step settings besides name, order and prompt whose change a comparison names. */
export const COMPARED_STEP_FIELDS = [
  'outputMode',
  'inputSources',
  'choices',
  'loopTargetStepId',
  'maxLoopIterations',
  'requiresUserInput',
] as const;
export type ComparedStepField = (typeof COMPARED_STEP_FIELDS)[number];

export type StepChangeKind = 'added' | 'removed' | 'changed' | 'unchanged';

/** One step across the two versions, matched by its id. */
export interface StepComparison {
  kind: StepChangeKind;
  /** The step in the version compared to; a removed step as it was. */
  step: Step;
  renamedFrom: string | null;
  movedFrom: number | null;
  /** The prompt from one version to the other; null when it is the same in both. */
  promptDiff: DiffPart[] | null;
  fields: ComparedStepField[];
}

export interface VersionComparison {
  name: { before: string; after: string } | null;
  status: { before: string; after: string } | null;
  description: DiffPart[] | null;
  steps: StepComparison[];
  changed: boolean;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function stepComparison(before: Step, after: Step): StepComparison {
  const fields = COMPARED_STEP_FIELDS.filter((field) => !same(before[field], after[field]));
  const renamedFrom = before.name === after.name ? null : before.name;
  const movedFrom = before.order === after.order ? null : before.order;
  const promptDiff =
    before.systemPrompt === after.systemPrompt ? null : diffText(before.systemPrompt, after.systemPrompt);
  const changed = fields.length > 0 || renamedFrom !== null || movedFrom !== null || promptDiff !== null;
  return { kind: changed ? 'changed' : 'unchanged', step: after, renamedFrom, movedFrom, promptDiff, fields };
}

const wholly = (kind: 'added' | 'removed', step: Step): StepComparison => ({
  kind,
  step,
  renamedFrom: null,
  movedFrom: null,
  promptDiff: step.systemPrompt === '' ? null : [{ kind, text: step.systemPrompt }],
  fields: [],
});

/**
 * What differs from one version to another: the flow's name, status and description, and each step, matched
 * by id, as added, removed, changed or unchanged. Steps read in the later version's order, a removed step
 * where it stood.
 */
export function compareVersions(before: VersionContent, after: VersionContent): VersionComparison {
  const earlier = new Map(before.steps.map((step) => [step.id, step]));
  const later = new Set(after.steps.map((step) => step.id));
  const kept = after.steps.map((step) => {
    const was = earlier.get(step.id);
    return was ? stepComparison(was, step) : wholly('added', step);
  });
  const removed = before.steps.filter((step) => !later.has(step.id)).map((step) => wholly('removed', step));
  const steps = [...removed, ...kept].toSorted(
    (a, b) => a.step.order - b.step.order || Number(b.kind === 'removed') - Number(a.kind === 'removed'),
  );

  const name =
    before.flow.name === after.flow.name ? null : { before: before.flow.name, after: after.flow.name };
  const status =
    before.flow.status === after.flow.status
      ? null
      : { before: before.flow.status, after: after.flow.status };
  const description =
    before.flow.description === after.flow.description
      ? null
      : diffText(before.flow.description, after.flow.description);
  return {
    name,
    status,
    description,
    steps,
    changed:
      name !== null || status !== null || description !== null || steps.some((s) => s.kind !== 'unchanged'),
  };
}

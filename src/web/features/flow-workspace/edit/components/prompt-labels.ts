import type { Step } from '@/lib/steps-query';
import { detectLabels } from '../../../../../domain/execution';

export interface PromptLabel {
  label: string;
  /** The earlier step the label names by order (step-N, step_N) or by name; null when it names none. */
  step: Pick<Step, 'id' | 'order' | 'name'> | null;
}

const STEP_BY_ORDER = /^step[-_](\d+)$/;

/**
 * The [[labels]] the editor lists under a prompt. A label naming no step is not an error: a result's own
 * label may answer to it when the step runs.
 */
export function promptLabelsOf(
  prompt: string,
  step: Pick<Step, 'id' | 'order'>,
  steps: readonly Pick<Step, 'id' | 'order' | 'name'>[],
): PromptLabel[] {
  const earlier = steps.filter((s) => s.order < step.order && s.id !== step.id);
  return detectLabels(prompt).map((label) => {
    const key = label.toLowerCase();
    const byOrder = STEP_BY_ORDER.exec(key);
    const named = byOrder
      ? earlier.find((s) => s.order === Number(byOrder[1]))
      : earlier.find((s) => s.name.trim().toLowerCase() === key);
    return { label, step: named ?? null };
  });
}

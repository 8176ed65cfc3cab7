import type { OutputMode } from '../../domain/flow';
import { runMode as t } from '../lib/strings';
import { Badge } from './ui/badge';

/** What configures a step, as the run mode's step card and a recommendation's step show it. */
export interface StepConfiguration {
  outputMode: OutputMode;
  choices: readonly string[];
  maxLoopIterations: number;
  requiresUserInput: boolean;
}

/** A step's output mode, its choices or loop count, the steps it reads and whether it needs input. */
export function StepConfigurationBadges({
  step,
  inputOrders,
}: {
  step: StepConfiguration;
  /** The orders of the steps it reads its input from. */
  inputOrders: readonly number[];
}) {
  return (
    <>
      <Badge tone="outline">{t.outputMode[step.outputMode]}</Badge>
      {step.outputMode === 'multiple_choice' ? (
        <Badge tone="outline">{t.choiceCount(step.choices.length)}</Badge>
      ) : null}
      {step.outputMode === 'loop' ? <Badge tone="outline">{t.loopMax(step.maxLoopIterations)}</Badge> : null}
      {inputOrders.map((order) => (
        <Badge key={order} tone="neutral">
          {t.inputFrom(order)}
        </Badge>
      ))}
      {step.requiresUserInput ? <Badge tone="amber">{t.requiresInput}</Badge> : null}
    </>
  );
}

import type { FlowEvent, FlowOrigin, FlowState, StepFields } from './flow-events';

const ORIGINS: Record<FlowOrigin, string> = {
  manual: 'by hand',
  'json-import': 'from an imported file',
  'ai-creator': 'by the AI Creator',
  'flow-creator': 'by the AI Flow Creator',
  recommendation: 'from a recommendation',
  template: 'from a template',
};

const FIELDS: Record<keyof StepFields, string> = {
  order: 'order',
  name: 'name',
  systemPrompt: 'prompt',
  outputMode: 'output mode',
  inputSources: 'inputs',
  choices: 'choices',
  loopTargetStepId: 'loop target',
  maxLoopIterations: 'loop count',
  currentLoopIteration: 'loop position',
  requiresUserInput: 'user input',
};

const steps = (count: number) => (count === 1 ? '1 step' : `${count} steps`);

/** What a version changed, in plain words; `before` is the flow as it stood before the event. */
export function versionSummary(event: FlowEvent, before: FlowState): string {
  const stepName = (stepId: string) => before.steps.find((step) => step.id === stepId)?.name ?? 'a step';
  switch (event.type) {
    case 'FlowCreated':
      return `Created ${ORIGINS[event.data.origin]} with ${steps(event.data.steps.length)}`;
    case 'FlowImported':
      return `Recorded as it stood, with ${steps(event.data.steps.length)}`;
    case 'FlowDescribed': {
      const { after } = event.data;
      const parts = [
        ...(after.name === undefined ? [] : [`Renamed to "${after.name}"`]),
        ...(after.description === undefined ? [] : ['Description changed']),
      ];
      return parts.join('; ');
    }
    case 'FlowStatusChanged':
      return `Status ${event.data.before} → ${event.data.after}`;
    case 'StepAdded':
      return `Added step "${event.data.step.name}"`;
    case 'StepEdited': {
      const fields = Object.keys(event.data.after).map((field) => FIELDS[field as keyof StepFields] ?? field);
      return `Edited step "${stepName(event.data.stepId)}": ${fields.join(', ')}`;
    }
    case 'StepRemoved':
      return `Removed step "${event.data.step.name}"`;
    case 'StepsReordered':
      return `Reordered ${steps(event.data.orders.length)}`;
    case 'FlowRestored':
      return `Restored version ${event.data.version}`;
    case 'FlowDeleted':
      return 'Deleted';
  }
}

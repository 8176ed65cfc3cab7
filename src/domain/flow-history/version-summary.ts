import {
  evolveFlow,
  type FlowEvent,
  type FlowOrigin,
  type FlowState,
  initialFlowState,
  type StepFields,
} from './flow-events';

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
        ...(after.status === undefined ? [] : [`Status ${event.data.before.status} → ${after.status}`]),
      ];
      return parts.join('; ');
    }
    case 'FlowStatusChanged':
      return `Status ${event.data.before} → ${event.data.after}`;
    case 'StepAdded':
      return `Added step "${event.data.step.name}"`;
    case 'StepEdited': {
      // In the fields' own order: the log (jsonb) keeps an object's keys in an order of its own.
      const fields = Object.entries(FIELDS)
        .filter(([field]) => field in event.data.after)
        .map(([, words]) => words);
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

/** An event of a flow's stream as the log holds it: the command that appended it names the version. */
export interface RecordedFlowEvent {
  streamPosition: number;
  type: string;
  data: unknown;
  metadata: { userId?: unknown; commandId?: unknown };
}

/** A version of a flow: one command's events, named by the position of the last. */
export interface FlowVersionEntry {
  version: number;
  summary: string;
  userId: string | null;
  at: string;
}

/**
 * The versions of a flow, oldest first: each command is one version (saving name and status at once is one),
 * summed up from what its events changed.
 */
export function flowVersions(events: RecordedFlowEvent[]): FlowVersionEntry[] {
  const versions: FlowVersionEntry[] = [];
  let state = initialFlowState();
  let commandOfLast: unknown;
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as FlowEvent;
    const summary = versionSummary(event, state);
    const last = versions.at(-1);
    const { commandId, userId } = recorded.metadata;
    if (last && commandId !== undefined && commandId === commandOfLast) {
      last.version = recorded.streamPosition;
      last.summary = `${last.summary}; ${summary}`;
    } else {
      versions.push({
        version: recorded.streamPosition,
        summary,
        userId: typeof userId === 'string' ? userId : null,
        at: event.data.at,
      });
    }
    commandOfLast = commandId;
    state = evolveFlow(state, event);
  }
  return versions;
}

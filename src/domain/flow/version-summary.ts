import { decider } from './decider';
import type { FlowEvent, FlowOrigin, FlowState, StepFields } from './events';

// The versions page speaks Vietnamese like the rest of the UI; product terms (step, flow, prompt, status
// values) stay as the UI writes them elsewhere.
const ORIGINS: Record<FlowOrigin, string> = {
  manual: 'thủ công',
  'json-import': 'từ file import',
  'ai-creator': 'bằng AI Creator',
  'flow-creator': 'bằng AI Flow Creator',
  recommendation: 'từ một recommendation',
  template: 'từ một template',
};

const FIELDS: Record<keyof StepFields, string> = {
  order: 'thứ tự',
  name: 'tên',
  systemPrompt: 'prompt',
  outputMode: 'output mode',
  inputSources: 'input sources',
  choices: 'choices',
  loopTargetStepId: 'loop target',
  maxLoopIterations: 'số vòng lặp',
  currentLoopIteration: 'vòng lặp hiện tại',
  requiresUserInput: 'user input',
  review: 'người duyệt',
  model: 'model',
};

// Vietnamese nouns take no plural: '1 step', '3 step'.
const steps = (count: number) => `${count} step`;

/** What a version changed, in plain words; `before` is the flow as it stood before the event. */
export function versionSummary(event: FlowEvent, before: FlowState): string {
  const stepName = (stepId: string) => before.steps.find((step) => step.id === stepId)?.name ?? 'một step';
  switch (event.type) {
    case 'FlowCreated':
      return `Tạo ${ORIGINS[event.data.origin]}, gồm ${steps(event.data.steps.length)}`;
    case 'FlowImported':
      return `Ghi nhận flow như đang có, gồm ${steps(event.data.steps.length)}`;
    case 'FlowDescribed': {
      const { after } = event.data;
      const parts = [
        ...(after.name === undefined ? [] : [`Đổi tên thành "${after.name}"`]),
        ...(after.description === undefined ? [] : ['Đổi mô tả']),
        ...(after.status === undefined ? [] : [statusChanged(event.data.before.status, after.status)]),
      ];
      return parts.join('; ');
    }
    case 'FlowStatusChanged':
      return statusChanged(event.data.before, event.data.after);
    case 'StepAdded':
      return `Thêm step "${event.data.step.name}"`;
    case 'StepEdited': {
      // In the fields' own order: the log (jsonb) keeps an object's keys in an order of its own.
      const fields = Object.entries(FIELDS)
        .filter(([field]) => field in event.data.after)
        .map(([, words]) => words);
      return `Sửa step "${stepName(event.data.stepId)}": ${fields.join(', ')}`;
    }
    case 'StepRemoved':
      return `Xóa step "${event.data.step.name}"`;
    case 'StepsReordered':
      return `Sắp xếp lại ${steps(event.data.orders.length)}`;
    case 'FlowRestored':
      return `Khôi phục Version ${event.data.version}`;
    case 'FlowDeleted':
      return 'Xóa flow';
    case 'FlowMoved':
      return event.data.to === null ? 'Chuyển về flow của chủ sở hữu' : 'Chuyển vào một workspace';
  }
}

const statusChanged = (before: string | undefined, after: string) => `Đổi status: ${before} → ${after}`;

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
  let state = decider.initialState();
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
    state = decider.evolve(state, event);
  }
  return versions;
}

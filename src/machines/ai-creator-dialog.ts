import { assign, emit, fromPromise, type SnapshotFrom, setup } from 'xstate';
import { builtinTemplate } from '../domain/builtin-templates';
import { workflowInImport } from '../domain/workflow-json';

/** A workflow as the dialog previews and sends it; the server checks it fully on create. */
export interface DialogWorkflow {
  /** An imported file's flow may have none; the server names it then. */
  name?: string | null;
  description?: string;
  steps: Array<{
    name: string;
    order: number;
    systemPrompt: string;
    outputMode: string;
    requiresUserInput?: boolean;
    inputSources?: string[];
  }>;
}

/** A created flow, as POST /api/ai/create-from-json answers. */
export interface CreatedFlow {
  id: string;
  name: string;
}

/** Where the workflow being created came from: the tab that asked. */
export type WorkflowSource = 'generated' | 'template' | 'import';

export interface AiCreatorContext {
  description: string;
  /** The generated workflow the 'Tạo AI' tab previews. */
  workflow: DialogWorkflow | null;
  templateId: string | null;
  importText: string;
  /** What is being created now, and from where. */
  creating: { workflow: DialogWorkflow; source: WorkflowSource } | null;
}

export type AiCreatorEvent =
  | { type: 'DESCRIPTION_CHANGED'; description: string }
  | { type: 'GENERATE' }
  /** Create the previewed, generated workflow. */
  | { type: 'CREATE' }
  | { type: 'TEMPLATE_CHOSEN'; templateId: string | null }
  | { type: 'CREATE_FROM_TEMPLATE' }
  | { type: 'IMPORT_TEXT_CHANGED'; text: string }
  | { type: 'IMPORT' };

/** What the dialog is told once each, for its toasts and for closing. */
export type AiCreatorEmitted =
  | { type: 'descriptionMissing' }
  | { type: 'responseFormatInvalid' }
  | { type: 'workflowDataInvalid' }
  | { type: 'generateFailed'; error: unknown }
  | { type: 'generated'; stepCount: number }
  | { type: 'templateMissing' }
  | { type: 'importEmpty' }
  | { type: 'importInvalidJson' }
  | { type: 'importNotWorkflow' }
  | { type: 'createFailed'; error: unknown }
  | { type: 'created'; flow: CreatedFlow; source: WorkflowSource; name: string };

export type AiCreatorPhase = 'idle' | 'generating' | 'preview' | 'creating';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The `workflow` object of a generate answer, if the answer has one. */
const workflowOfAnswer = (output: unknown) =>
  isRecord(output) && isRecord(output.workflow) ? output.workflow : null;

/** A workflow worth previewing names itself and has steps. */
const isComplete = (workflow: Record<string, unknown> | null): workflow is Record<string, unknown> =>
  workflow !== null &&
  typeof workflow.name === 'string' &&
  workflow.name.trim() !== '' &&
  Array.isArray(workflow.steps) &&
  workflow.steps.length > 0;

type ImportReading =
  | { kind: 'empty' }
  | { kind: 'invalidJson' }
  | { kind: 'notWorkflow' }
  | { kind: 'workflow'; workflow: DialogWorkflow };

/** What the Import tab's text holds. */
export function readImport(text: string): ImportReading {
  if (text.trim() === '') return { kind: 'empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalidJson' };
  }
  const workflow = workflowInImport(value);
  return workflow
    ? { kind: 'workflow', workflow: workflow as unknown as DialogWorkflow }
    : { kind: 'notWorkflow' };
}

const cleared = {
  description: '',
  workflow: null,
  templateId: null,
  importText: '',
  creating: null,
} satisfies AiCreatorContext;

const importGuard =
  (kind: ImportReading['kind']) =>
  ({ context }: { context: AiCreatorContext }) =>
    readImport(context.importText).kind === kind;

/**
 * The AI creator dialog's phases: idle, generating (the 'Tạo AI' tab's request), preview of
 * the generated workflow, creating (from the preview, a built-in template or an imported JSON), then
 * success, which clears every field and tells the dialog to close. A failure goes back where it came
 * from and is emitted with its error. The two requests are actors the dialog provides.
 */
export const aiCreatorDialogMachine = setup({
  types: {
    context: {} as AiCreatorContext,
    events: {} as AiCreatorEvent,
    emitted: {} as AiCreatorEmitted,
  },
  actors: {
    generate: fromPromise<unknown, { description: string; includeTemplateHints: boolean }>(async () => {
      throw new Error('The dialog has no generate call: provide generate');
    }),
    createFlow: fromPromise<CreatedFlow, { workflowJSON: DialogWorkflow; source: WorkflowSource }>(
      async () => {
        throw new Error('The dialog has no create call: provide createFlow');
      },
    ),
  },
  guards: {
    hasDescription: ({ context }) => context.description.trim() !== '',
    hasPreview: ({ context }) => context.workflow !== null,
    templateChosen: ({ context }) =>
      context.templateId !== null && builtinTemplate(context.templateId) !== undefined,
    importEmpty: importGuard('empty'),
    importInvalidJson: importGuard('invalidJson'),
    importNotWorkflow: importGuard('notWorkflow'),
    answerLacksWorkflow: ({ event }) => workflowOfAnswer((event as { output?: unknown }).output) === null,
    workflowIncomplete: ({ event }) => !isComplete(workflowOfAnswer((event as { output?: unknown }).output)),
  },
}).createMachine({
  id: 'aiCreatorDialog',
  context: cleared,
  initial: 'ready',
  on: {
    DESCRIPTION_CHANGED: { actions: assign({ description: ({ event }) => event.description }) },
    TEMPLATE_CHOSEN: { actions: assign({ templateId: ({ event }) => event.templateId }) },
    IMPORT_TEXT_CHANGED: { actions: assign({ importText: ({ event }) => event.text }) },
  },
  states: {
    /** Waiting for the user: idle, or previewing a generated workflow. Every tab works from both. */
    ready: {
      initial: 'idle',
      on: {
        GENERATE: [
          { guard: 'hasDescription', target: 'generating' },
          { actions: emit({ type: 'descriptionMissing' as const }) },
        ],
        CREATE_FROM_TEMPLATE: [
          {
            guard: 'templateChosen',
            target: 'creating',
            actions: assign({
              creating: ({ context }) => ({
                workflow: builtinTemplate(context.templateId!)!.workflow as DialogWorkflow,
                source: 'template' as const,
              }),
            }),
          },
          { actions: emit({ type: 'templateMissing' as const }) },
        ],
        IMPORT: [
          { guard: 'importEmpty', actions: emit({ type: 'importEmpty' as const }) },
          { guard: 'importInvalidJson', actions: emit({ type: 'importInvalidJson' as const }) },
          { guard: 'importNotWorkflow', actions: emit({ type: 'importNotWorkflow' as const }) },
          {
            target: 'creating',
            actions: assign({
              creating: ({ context }) => {
                const reading = readImport(context.importText);
                return reading.kind === 'workflow'
                  ? { workflow: reading.workflow, source: 'import' as const }
                  : null;
              },
            }),
          },
        ],
      },
      states: {
        idle: {},
        preview: {
          on: {
            CREATE: {
              target: '#aiCreatorDialog.creating',
              actions: assign({
                creating: ({ context }) => ({ workflow: context.workflow!, source: 'generated' as const }),
              }),
            },
          },
        },
      },
    },
    generating: {
      invoke: {
        src: 'generate',
        input: ({ context }) => ({ description: context.description.trim(), includeTemplateHints: true }),
        onDone: [
          {
            guard: 'answerLacksWorkflow',
            target: 'returning',
            actions: emit({ type: 'responseFormatInvalid' as const }),
          },
          {
            guard: 'workflowIncomplete',
            target: 'returning',
            actions: emit({ type: 'workflowDataInvalid' as const }),
          },
          {
            target: 'ready.preview',
            actions: [
              assign({
                workflow: ({ event }) => workflowOfAnswer(event.output) as unknown as DialogWorkflow,
              }),
              emit(({ event }) => ({
                type: 'generated' as const,
                stepCount: (workflowOfAnswer(event.output)!.steps as unknown[]).length,
              })),
            ],
          },
        ],
        onError: {
          target: 'returning',
          actions: emit(({ event }) => ({ type: 'generateFailed' as const, error: event.error })),
        },
      },
    },
    creating: {
      invoke: {
        src: 'createFlow',
        input: ({ context }) => ({
          workflowJSON: context.creating!.workflow,
          source: context.creating!.source,
        }),
        onDone: {
          target: 'success',
          actions: emit(({ context, event }) => ({
            type: 'created' as const,
            flow: event.output,
            source: context.creating!.source,
            name: event.output.name,
          })),
        },
        onError: {
          target: 'returning',
          actions: [
            emit(({ event }) => ({ type: 'createFailed' as const, error: event.error })),
            assign({ creating: null }),
          ],
        },
      },
    },
    /** The dialog closes on 'created'; the fields start afresh for the next time it opens. */
    success: {
      entry: assign(cleared),
      always: 'ready.idle',
    },
    /** Back to where the user was: the preview when there is one. */
    returning: {
      always: [{ guard: 'hasPreview', target: 'ready.preview' }, { target: 'ready.idle' }],
    },
  },
});

export type AiCreatorSnapshot = SnapshotFrom<typeof aiCreatorDialogMachine>;

/** The phase the dialog is in. */
export function aiCreatorPhaseOf(snapshot: AiCreatorSnapshot): AiCreatorPhase {
  if (snapshot.matches('generating')) return 'generating';
  if (snapshot.matches('creating')) return 'creating';
  if (snapshot.matches({ ready: 'preview' })) return 'preview';
  return 'idle';
}

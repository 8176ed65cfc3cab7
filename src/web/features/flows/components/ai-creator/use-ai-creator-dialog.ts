import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useEffect, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { type ToastMessage, useToast } from '@/components/ui/toast';
import { type GenerateWorkflowInput, generateWorkflow } from '@/features/flows/api/generate-workflow';
import { aiCreator as t } from '@/features/flows/strings';
import { messageOf } from '@/lib/api-client';
import { createFlowFromJson } from '@/lib/flows-query';
import type { WorkflowJsonOrigin } from '../../../../../domain/flow/events';
import {
  type AiCreatorEmitted,
  aiCreatorDialogMachine,
  aiCreatorPhaseOf,
  type CreatedFlow,
  type DialogWorkflow,
  type WorkflowSource,
} from '../../../../../machines/ai-creator-dialog';

const failure = (title: string, description: string): ToastMessage => ({
  title,
  description,
  variant: 'destructive',
});

/** The toast for each outcome the machine reports; none for 'created' from import. */
function toastOf(event: AiCreatorEmitted): ToastMessage {
  switch (event.type) {
    case 'descriptionMissing':
      return failure(t.descriptionMissing, t.descriptionMissingText);
    case 'responseFormatInvalid':
      return failure(t.formatError, t.formatErrorText);
    case 'workflowDataInvalid':
      return failure(t.dataError, t.dataErrorText);
    case 'generateFailed':
    case 'createFailed':
      return failure(t.failed, messageOf(event.error, t.failedText));
    case 'generated':
      return { title: t.generated, description: t.generatedText(event.stepCount), variant: 'success' };
    case 'templateMissing':
      return failure(t.templateMissing, t.templateMissingText);
    case 'importEmpty':
      return failure(t.importEmpty, t.importEmptyText);
    case 'importInvalidJson':
      return failure(t.importInvalid, t.importInvalidText);
    case 'importNotWorkflow':
      return failure(t.importError, t.importErrorText);
    case 'created':
      return event.source === 'import'
        ? { title: t.imported, description: t.importedText(event.name), variant: 'success' }
        : { title: t.created, description: t.createdText, variant: 'success' };
    default: {
      const unknown: never = event;
      throw new Error(`Unknown outcome ${String(unknown)}`);
    }
  }
}

/** What the flow's history records as the path that made it. */
const ORIGINS: Record<WorkflowSource, WorkflowJsonOrigin> = {
  generated: 'ai-creator',
  template: 'template',
  import: 'json-import',
};

/** The dialog's machine with its two calls; toasts for each outcome, and `onCreated` once a flow exists. */
export function useAiCreatorDialog(onCreated: () => void) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [machine] = useState(() =>
    aiCreatorDialogMachine.provide({
      actors: {
        generate: fromPromise<unknown, GenerateWorkflowInput>(({ input }) => generateWorkflow(input)),
        createFlow: fromPromise<CreatedFlow, { workflowJSON: DialogWorkflow; source: WorkflowSource }>(
          async ({ input }) => {
            const flow = await createFlowFromJson(queryClient, input.workflowJSON, ORIGINS[input.source]);
            return { id: flow.id, name: flow.name };
          },
        ),
      },
    }),
  );
  const [snapshot, send, dialog] = useMachine(machine);
  // The latest callback, without subscribing again each time the page renders.
  const created = useRef(onCreated);
  created.current = onCreated;

  useEffect(() => {
    const subscription = dialog.on('*', (event) => {
      toast(toastOf(event));
      if (event.type === 'created') created.current();
    });
    return () => subscription.unsubscribe();
  }, [dialog, toast]);

  return { send, context: snapshot.context, phase: aiCreatorPhaseOf(snapshot) };
}

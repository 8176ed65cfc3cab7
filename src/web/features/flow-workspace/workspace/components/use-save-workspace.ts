import { useMutation } from '@tanstack/react-query';
import { useAtom, useSetAtom } from 'jotai';
import { useEffect } from 'react';
import { useToast } from '@/components/ui/toast';
import { sayingVersionMismatch } from '@/features/flow-workspace/api/flow-version';
import { useUpdateFlow } from '@/features/flow-workspace/api/update-flow';
import { useUpdateStep } from '@/features/flow-workspace/api/update-step';
import {
  flowDetailsDraftAtom,
  stepDraftAtom,
  useDirtyFlag,
  useFlowDetailsDraft,
} from '@/features/flow-workspace/edit/components/edit-session';
import { flowDetailsProblems } from '@/features/flow-workspace/edit/components/flow-details-card';
import {
  draftChanges,
  draftProblem,
  hasDraftChanges,
} from '@/features/flow-workspace/edit/components/step-draft';
import { editMode } from '@/features/flow-workspace/strings';
import type { Flow } from '@/lib/flow-query';
import { toasts } from '@/lib/strings';

/**
 * The header's Save: the flow's name, description and status as edited in edit mode, and whatever is still
 * open in the step editor. A success clears the dirty flag.
 */
export function useSaveWorkspace(flow: Flow) {
  const [draft, setDraft] = useAtom(stepDraftAtom);
  const { dirty, clearDirty } = useDirtyFlag(flow.id);
  const updateFlow = useUpdateFlow();
  // The Save's own toast tells a failure of any part of it.
  const updateStep = useUpdateStep(flow.id, false);
  const toast = useToast();
  const openEdits = draft?.flowId === flow.id && hasDraftChanges(draft) ? draft : null;
  const setDetailsDraft = useSetAtom(flowDetailsDraftAtom);
  const details = useFlowDetailsDraft(flow).changed;

  const save = useMutation({
    mutationFn: async () => {
      if (openEdits) {
        const problem = draftProblem(openEdits);
        if (problem) throw new Error(editMode[problem]);
        await updateStep.mutateAsync({ stepId: openEdits.stepId, changes: draftChanges(openEdits) });
      }
      if (details) {
        const problem = Object.values(flowDetailsProblems(details))[0];
        if (problem) throw new Error(problem);
      }
      return updateFlow.mutateAsync({ ...flow, ...details });
    },
    onSuccess: () => {
      // Edits typed while saving stay open.
      setDraft((current) => (current === openEdits ? null : current));
      setDetailsDraft((current) => (current === details ? null : current));
      clearDirty();
      toast({ title: toasts.saveSuccess, variant: 'success' });
    },
    meta: {
      errorToast: sayingVersionMismatch({ title: toasts.saveFailedTitle, messageOr: toasts.saveFailed }),
    },
  });

  // Closing or reloading the tab would lose edits not saved yet: the browser asks first. (Moving within the
  // app keeps them: they are held for the flow until saved or discarded.)
  const losable = openEdits !== null || details !== null;
  useEffect(() => {
    if (!losable) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [losable]);

  return {
    save: () => save.mutate(),
    saving: save.isPending,
    /** Edits only this tab holds. */
    unsaved: losable,
    /** The dirty flag: steps added, deleted or updated (each stored at once) since the last Save. */
    stepsChanged: dirty,
  };
}

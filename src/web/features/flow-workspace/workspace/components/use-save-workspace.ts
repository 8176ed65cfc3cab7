import { useMutation } from '@tanstack/react-query';
import { useAtom } from 'jotai';
import type { Flow } from '../../../../../domain/flow';
import { useToast } from '../../../../components/ui/toast';
import { editMode, toasts } from '../../../../lib/strings';
import { useUpdateFlow } from '../../api/update-flow';
import { useUpdateStep } from '../../api/update-step';
import { stepDraftAtom, useDirtyFlag } from '../../edit/components/edit-session';
import { draftChanges, draftProblem, hasDraftChanges } from '../../edit/components/step-draft';

/**
 * The header's Save: the flow's name, description and status, and whatever is still open in the step
 * editor. A success clears the dirty flag.
 */
export function useSaveWorkspace(flow: Flow) {
  const [draft, setDraft] = useAtom(stepDraftAtom);
  const { dirty, clearDirty } = useDirtyFlag(flow.id);
  const updateFlow = useUpdateFlow();
  // The Save's own toast tells a failure of any part of it.
  const updateStep = useUpdateStep(flow.id, false);
  const toast = useToast();
  const openEdits = draft?.flowId === flow.id && hasDraftChanges(draft) ? draft : null;

  const save = useMutation({
    mutationFn: async () => {
      if (openEdits) {
        const problem = draftProblem(openEdits);
        if (problem) throw new Error(editMode[problem]);
        await updateStep.mutateAsync({ stepId: openEdits.stepId, changes: draftChanges(openEdits) });
      }
      return updateFlow.mutateAsync(flow);
    },
    onSuccess: () => {
      // Edits typed while saving stay open.
      setDraft((current) => (current === openEdits ? null : current));
      clearDirty();
      toast({ title: toasts.saveSuccess, variant: 'success' });
    },
    meta: { errorToast: { title: toasts.saveFailedTitle, messageOr: toasts.saveFailed } },
  });

  return { save: () => save.mutate(), saving: save.isPending, unsaved: dirty || openEdits !== null };
}

import { atom, useAtom } from 'jotai';
import { useCallback, useEffect } from 'react';
import type { Flow } from '@/lib/flow-query';
import type { Step } from '@/lib/steps-query';
import { draftOf, type StepDraft, type StepFields } from './step-draft';

/**
 * The open step editor's local copies. They outlive a switch to run mode and back, so the header's Save
 * still finds them; choosing another step drops them.
 */
export const stepDraftAtom = atom<StepDraft | null>(null);

/** The flow's name, description and status as edited in edit mode, until the header's Save sends them. */
export type FlowDetails = Pick<Flow, 'name' | 'description' | 'status'>;
export const flowDetailsDraftAtom = atom<(FlowDetails & { flowId: string }) | null>(null);

/** The flow's details as shown in the editor (the draft over the saved flow), and the way to change them. */
export function useFlowDetailsDraft(flow: Flow) {
  const [stored, setStored] = useAtom(flowDetailsDraftAtom);
  const draft = stored?.flowId === flow.id ? stored : null;
  const details: FlowDetails = draft ?? {
    name: flow.name,
    description: flow.description,
    status: flow.status,
  };
  const changed =
    draft !== null &&
    (draft.name !== flow.name || draft.description !== flow.description || draft.status !== flow.status);
  const change = (fields: Partial<FlowDetails>) =>
    setStored((current) => ({
      ...(current?.flowId === flow.id ? current : { flowId: flow.id, ...details }),
      ...fields,
    }));
  return { details, changed: changed ? draft : null, change, discard: () => setStored(null) };
}

/** Flows with a step added, deleted or updated since their last Save (the dirty flag). */
const dirtyFlowIdsAtom = atom<ReadonlySet<string>>(new Set<string>());

export function useDirtyFlag(flowId: string) {
  const [dirtyFlowIds, setDirtyFlowIds] = useAtom(dirtyFlowIdsAtom);
  const markDirty = useCallback(
    () => setDirtyFlowIds((ids) => (ids.has(flowId) ? ids : new Set(ids).add(flowId))),
    [flowId, setDirtyFlowIds],
  );
  const clearDirty = useCallback(
    () =>
      setDirtyFlowIds((ids) => {
        if (!ids.has(flowId)) return ids;
        const next = new Set(ids);
        next.delete(flowId);
        return next;
      }),
    [flowId, setDirtyFlowIds],
  );
  return { dirty: dirtyFlowIds.has(flowId), markDirty, clearDirty };
}

/** The editor's copies of a step's fields and its editing flag; a new step id resets both. */
export function useStepDraft(step: Step) {
  const [stored, setStored] = useAtom(stepDraftAtom);
  useEffect(() => {
    setStored((current) => (current === null || current.stepId === step.id ? current : null));
  }, [step.id, setStored]);
  // Not editing, the editor shows the step as it is now.
  const draft = stored !== null && stored.stepId === step.id && stored.editing ? stored : draftOf(step);

  const change = (fields: Partial<StepFields>) =>
    setStored((current) => {
      const open =
        current !== null && current.stepId === step.id && current.editing ? current : draftOf(step, true);
      return { ...open, fields: { ...open.fields, ...fields } };
    });

  return {
    draft,
    startEditing: () => setStored(draftOf(step, true)),
    stopEditing: () => setStored(null),
    change,
  };
}

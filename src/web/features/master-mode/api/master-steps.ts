import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  MasterSessionWithSteps,
  MasterStep,
  MasterStepType,
  UpdateMasterStepInput,
} from '../../../../domain/master-mode/master-session';
import { api } from '../../../lib/api-client';
import { masterSessionQueryOptions } from './get-master-session';

export interface CreateMasterStepInput {
  sessionId: string;
  order: number;
  stepName: string;
  userInput: string;
  result: string;
  systemPrompt: string;
  stepType: MasterStepType;
  isRequired: boolean;
}

export const createMasterStep = (input: CreateMasterStepInput) =>
  api.post<MasterStep>('/api/master-mode/steps', input);
export const updateMasterStep = (stepId: string, changes: UpdateMasterStepInput) =>
  api.put<MasterStep>(`/api/master-mode/steps/${stepId}`, changes);
export const deleteMasterStep = (stepId: string) => api.delete(`/api/master-mode/steps/${stepId}`);
export const executeMasterStep = (stepId: string) =>
  api.post<MasterStep>(`/api/master-mode/execute/${stepId}`);

/** Puts a row the server answered into the cached session, in order. */
function storeRow(session: MasterSessionWithSteps | undefined, row: MasterStep) {
  if (!session) return session;
  const others = session.steps.filter((s) => s.id !== row.id);
  const steps = [...others, row].sort((a, b) => a.order - b.order || a.createdAt.localeCompare(b.createdAt));
  return { ...session, steps };
}

function useRowMutation<Variables>(sessionId: string, call: (variables: Variables) => Promise<MasterStep>) {
  const queryClient = useQueryClient();
  const key = masterSessionQueryOptions(sessionId).queryKey;
  return useMutation({
    mutationFn: call,
    onSuccess: (row) => queryClient.setQueryData(key, (session) => storeRow(session, row)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export const useCreateMasterStep = (sessionId: string) => useRowMutation(sessionId, createMasterStep);

export const useUpdateMasterStep = (sessionId: string) =>
  useRowMutation(sessionId, ({ stepId, changes }: { stepId: string; changes: UpdateMasterStepInput }) =>
    updateMasterStep(stepId, changes),
  );

export const useExecuteMasterStep = (sessionId: string) => useRowMutation(sessionId, executeMasterStep);

export function useDeleteMasterStep(sessionId: string) {
  const queryClient = useQueryClient();
  const key = masterSessionQueryOptions(sessionId).queryKey;
  return useMutation({
    mutationFn: deleteMasterStep,
    onSuccess: (_, stepId) =>
      queryClient.setQueryData(key, (session) =>
        session ? { ...session, steps: session.steps.filter((s) => s.id !== stepId) } : session,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, type BodyOf, client } from '@/lib/api-client';
import type { FailureToast } from '@/lib/failure-toast';
import { masterMode as t } from '../strings';
import {
  type MasterSessionWithSteps,
  type MasterStep,
  masterSessionQueryOptions,
} from './get-master-session';

export type CreateMasterStepInput = BodyOf<'/api/master-mode/steps', 'post'>;
export type UpdateMasterStepInput = BodyOf<'/api/master-mode/steps/{stepId}', 'put'>;

export const createMasterStep = async (input: CreateMasterStepInput) =>
  answerOf(await client.POST('/api/master-mode/steps', { body: input }));
export const updateMasterStep = async (stepId: string, changes: UpdateMasterStepInput) =>
  answerOf(
    await client.PUT('/api/master-mode/steps/{stepId}', { params: { path: { stepId } }, body: changes }),
  );
export const deleteMasterStep = async (stepId: string) =>
  answerOf(await client.DELETE('/api/master-mode/steps/{stepId}', { params: { path: { stepId } } }));
export const executeMasterStep = async (stepId: string) =>
  answerOf(await client.POST('/api/master-mode/execute/{stepId}', { params: { path: { stepId } } }));

/** Puts a row the server answered into the cached session, in order. */
function storeRow(session: MasterSessionWithSteps | undefined, row: MasterStep) {
  if (!session) return session;
  const others = session.steps.filter((s) => s.id !== row.id);
  const steps = [...others, row].sort((a, b) => a.order - b.order || a.createdAt.localeCompare(b.createdAt));
  return { ...session, steps };
}

/** A failure says what failed and, when the server says why, that. */
const failedWith = (title: string): FailureToast => ({ title, messageOr: title });

function useRowMutation<Variables>(
  sessionId: string,
  call: (variables: Variables) => Promise<MasterStep>,
  failure: FailureToast,
) {
  const queryClient = useQueryClient();
  const key = masterSessionQueryOptions(sessionId).queryKey;
  return useMutation({
    mutationFn: call,
    meta: { errorToast: failure },
    onSuccess: (row) => queryClient.setQueryData(key, (session) => storeRow(session, row)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

export const useCreateMasterStep = (sessionId: string) =>
  useRowMutation(sessionId, createMasterStep, failedWith(t.addFailed));

export const useUpdateMasterStep = (sessionId: string) =>
  useRowMutation(
    sessionId,
    ({ stepId, changes }: { stepId: string; changes: UpdateMasterStepInput }) =>
      updateMasterStep(stepId, changes),
    failedWith(t.updateFailed),
  );

export const useExecuteMasterStep = (sessionId: string) =>
  useRowMutation(sessionId, executeMasterStep, failedWith(t.executeFailed));

export function useDeleteMasterStep(sessionId: string) {
  const queryClient = useQueryClient();
  const key = masterSessionQueryOptions(sessionId).queryKey;
  return useMutation({
    mutationFn: deleteMasterStep,
    meta: { errorToast: failedWith(t.deleteFailed) },
    onSuccess: (_, stepId) =>
      queryClient.setQueryData(key, (session) =>
        session ? { ...session, steps: session.steps.filter((s) => s.id !== stepId) } : session,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { answerOf, type BodyOf, client } from '@/lib/api-client';
import { masterMode as t } from '../strings';
import { storeMasterSession } from './get-master-session';

export type CreateMasterSessionInput = BodyOf<'/api/master-mode/standalone', 'post'>;

export const createMasterSession = async (input: CreateMasterSessionInput) =>
  answerOf(await client.POST('/api/master-mode/standalone', { body: input }));

export function useCreateMasterSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMasterSession,
    meta: { errorToast: { title: t.createFailed, description: '' } },
    onSuccess: (session) => {
      storeMasterSession(queryClient, session);
      void queryClient.invalidateQueries({ queryKey: ['/api/master-mode/sessions'] });
    },
  });
}

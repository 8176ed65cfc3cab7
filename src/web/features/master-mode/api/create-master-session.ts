import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import type { MasterSessionWithSteps } from '../../../../domain/master-mode/master-session';
import { masterMode as t } from '../strings';
import { storeMasterSession } from './get-master-session';

export interface CreateMasterSessionInput {
  name: string;
  flowId?: string;
}

export const createMasterSession = (input: CreateMasterSessionInput) =>
  api.post<MasterSessionWithSteps>('/api/master-mode/standalone', input);

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

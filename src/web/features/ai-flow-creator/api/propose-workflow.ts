import { api } from '@/lib/api-client';
import type { WorkflowProposal } from '../../../../domain/ai-flow-creator';

/** A workflow proposal built from the whole conversation so far. */
export async function proposeWorkflow(conversationHistory: string): Promise<WorkflowProposal> {
  const { proposal } = await api.post<{ proposal: WorkflowProposal }>('/api/ai/flow-creator/proposal', {
    conversationHistory,
  });
  return proposal;
}

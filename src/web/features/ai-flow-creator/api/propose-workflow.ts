import { type AnswerOf, answerOf, client } from '@/lib/api-client';

export type WorkflowProposal = AnswerOf<'/api/ai/flow-creator/proposal', 'post'>['proposal'];

/** A workflow proposal built from the whole conversation so far. */
export async function proposeWorkflow(conversationHistory: string): Promise<WorkflowProposal> {
  const { proposal } = answerOf(
    await client.POST('/api/ai/flow-creator/proposal', { body: { conversationHistory } }),
  );
  return proposal;
}

import { answerOf, client } from '@/lib/api-client';

/** The AI's improved version of a workflow description: the creator's answer to the first message. */
export async function improveDescription(description: string): Promise<string> {
  const { improvement } = answerOf(
    await client.POST('/api/ai/flow-creator/improve', { body: { description } }),
  );
  return improvement;
}

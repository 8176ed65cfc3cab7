import { api } from '@/lib/api-client';

/** The AI's improved version of a workflow description: the creator's answer to the first message. */
export async function improveDescription(description: string): Promise<string> {
  const { improvement } = await api.post<{ improvement: string }>('/api/ai/flow-creator/improve', {
    description,
  });
  return improvement;
}

import { answerOf, client } from '@/lib/api-client';

export interface GenerateWorkflowInput {
  description: string;
  includeTemplateHints: boolean;
}

/**
 * Asks the server's model for a workflow. The answer is returned as it came: the dialog checks that it
 * holds a workflow with a name and steps before previewing it.
 */
export const generateWorkflow = async (input: GenerateWorkflowInput): Promise<unknown> =>
  answerOf(await client.POST('/api/ai/generate-workflow', { body: input }));

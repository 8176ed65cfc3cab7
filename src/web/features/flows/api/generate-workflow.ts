import { answerOf, type BodyOf, client } from '@/lib/api-client';

/** The dialog always says whether the model is shown the templates. */
export type GenerateWorkflowInput = Required<BodyOf<'/api/ai/generate-workflow', 'post'>>;

/**
 * Asks the server's model for a workflow. The answer is returned as it came: the dialog checks that it
 * holds a workflow with a name and steps before previewing it.
 */
export const generateWorkflow = async (input: GenerateWorkflowInput): Promise<unknown> =>
  answerOf(await client.POST('/api/ai/generate-workflow', { body: input }));

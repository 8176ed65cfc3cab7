import { randomUUID } from 'node:crypto';
import type { FlowsRepository } from '../flows';
import type { ExecutionCommands } from './execution-commands';

/**
 * Starts a new execution of the source's flow in which the steps before `stepId` are done with the
 * source's approved results, so the flow goes on from that step without asking the model again for the
 * steps before it. Answers the new execution's id (the first one, when the command was sent before).
 */
export async function rerunFromStep(
  executions: ExecutionCommands,
  flows: FlowsRepository,
  sourceExecutionId: string,
  userId: string,
  stepId: string,
  commandId?: string,
): Promise<string> {
  const { state: source } = await executions.load(sourceExecutionId, userId);
  const flow = await flows.stepsToRun(source.flowId, userId);
  const executionId = randomUUID();
  const { state } = await executions.handle(
    executionId,
    userId,
    {
      type: 'StartExecutionFrom',
      data: { executionId, flowId: source.flowId, fromStepId: stepId, source },
    },
    { flow, commandId },
  );
  return state.id;
}

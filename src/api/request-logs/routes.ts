import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OUTPUT_MODES } from '../../domain/flow';
import { userIdOf } from '../auth/plugin';
import { noContent, recordId, storedAt, textsByName, unreviewedResultUse } from '../http/answer-schemas';
import { type Keyed, listAnswer, type Page, pagedOr, pageQuery } from '../http/pages';
import { flowIdParams } from '../http/request-schemas';
import { REQUEST_LOGS_ORDER, type RequestLogRow } from './request-logs-repository';

/** A model request of the flow, as the logs dialog lists it. */
const requestLog = z.object({
  id: recordId,
  flowId: recordId,
  executionId: recordId,
  stepId: recordId,
  stepOrder: z.int(),
  startedEventId: recordId,
  originalSystemPrompt: z.string(),
  finalPrompt: z.string(),
  userInput: z.string().nullable(),
  outputMode: z.enum(OUTPUT_MODES),
  choices: z.array(z.string()),
  stepLabels: textsByName,
  unresolvedLabels: z.array(z.string()),
  /** Results the prompt used while nobody had approved them: none approved, the run went on with these. */
  unreviewedResults: z.array(unreviewedResultUse),
  model: z.string().nullable(),
  /** The model's provider (of its `provider:name` id); null on requests recorded before it was kept. */
  provider: z.string().nullable(),
  keySource: z.string().nullable(),
  /** Times the model was asked again for an answer that fit the step's format. */
  reasks: z.int(),
  /** Tokens the model read and wrote, every ask of a run told; null unless it answered and reported them. */
  inputTokens: z.int().nullable(),
  outputTokens: z.int().nullable(),
  /** Milliseconds from sending the request to the first text of the answer; null when none came, or on older requests. */
  firstTokenMs: z.int().nullable(),
  aiResponse: z.string().nullable(),
  /** null while the model is answering. */
  success: z.boolean().nullable(),
  errorMessage: z.string().nullable(),
  requestedAt: storedAt,
  /** The StepRunStarted event it belongs to: `npm run events -- show <executionId>` lists it at its position. */
  startedEvent: z.object({
    id: recordId,
    executionId: recordId,
    position: z.int().nullable(),
    commandId: z.string().nullable(),
  }),
});

export const logRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/flows/:flowId/logs',
    { schema: { params: flowIdParams, querystring: pageQuery, response: { 200: pagedOr(requestLog) } } },
    async (request) => {
      const { flowId } = request.params;
      const flow = await app.flows.owned(flowId, userIdOf(request));
      const rows = async (page: Page | null) => (await app.requestLogs.listed(flow, page)).map(asListed);
      return listAnswer(request.query, REQUEST_LOGS_ORDER, rows);
    },
  );

  // The requests stay in the event log (audit); clearing hides them from this list.
  app.delete(
    '/api/flows/:flowId/logs',
    { schema: { params: flowIdParams, response: { 204: noContent } } },
    async (request, reply) => {
      await app.flows.clearLogs(request.params.flowId, userIdOf(request));
      return reply.status(204).send();
    },
  );
};

/** A stored request as the list answers it. */
function asListed({ startedEventPosition, startedEventCommandId, ...log }: Keyed<RequestLogRow>) {
  return {
    ...log,
    // Where to find the request in the event log: `npm run events -- show <executionId>` lists it there.
    startedEvent: {
      id: log.startedEventId,
      executionId: log.executionId,
      position: startedEventPosition,
      commandId: startedEventCommandId,
    },
  };
}

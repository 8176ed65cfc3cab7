import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_TEXT_CEILING } from '../../domain/limits';
import { requestedId } from '../../domain/record-id';
import { userIdOf } from '../auth/plugin';
import { executionAnswer, stepRunOutcomeAnswer, stepRunSummaryAnswer } from '../http/answer-schemas';
import { tagAnswer } from '../http/entity-tags';
import {
  commandIdOf,
  idParams,
  noFieldsBody,
  preferHeader,
  prefersMinimal,
  writeHeaders,
} from '../http/request-schemas';
import { modelCallRateLimit } from '../model-calls/rate-limit';
import { stepRunAnswerText, stepRunSummaryText } from './execution-answer';

const runParams = z.object({ id: requestedId(), stepId: requestedId() });
/** No body at all (it reaches validation as null) runs with empty input. */
const runBody = z.preprocess(
  (body) => body ?? {},
  z.object({
    userInput: z.string().max(MAX_TEXT_CEILING).default(''),
    /** The loop iteration an 'Execute (lần N)' button runs; without it, the step's first pending work. */
    loopIteration: z.int().min(1).max(100).optional(),
  }),
);

export const executionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/executions/:id',
    { schema: { params: idParams, response: { 200: executionAnswer } } },
    async (request, reply) => {
      const { body, version } = await app.executionViews.keptView(request.params.id, userIdOf(request));
      // A poll of an unchanged execution (If-None-Match) costs no body at all.
      if (tagAnswer(request, reply, version)) return reply;
      // The view is kept as JSON text between changes, serialised through executionAnswer when it was kept.
      return reply.type('application/json; charset=utf-8').send(body as never);
    },
  );

  app.post(
    '/api/executions/:id/steps/:stepId/execute',
    {
      ...modelCallRateLimit(app.config.modelCallsPerMinute),
      schema: {
        params: runParams,
        body: runBody,
        headers: writeHeaders.extend({ prefer: preferHeader }),
        response: {
          200: z
            .union([stepRunOutcomeAnswer, stepRunSummaryAnswer])
            .describe(
              "The execution as the run left it and the run's results; with Prefer: return=minimal, only the results and where the execution stands",
            ),
        },
      },
    },
    async (request, reply) => {
      const { id, stepId } = request.params;
      const { userInput, loopIteration } = request.body;
      const userId = userIdOf(request);
      const { execution, results } = await app.stepRunner.run({
        executionId: id,
        userId,
        stepId,
        userInput,
        commandId: commandIdOf(request),
        loopIteration: loopIteration ?? null,
      });
      // Serialised as the schema would, each result and run once per object (see stepRunAnswerText).
      reply.type('application/json; charset=utf-8');
      if (!prefersMinimal(request.headers.prefer))
        return reply.send(stepRunAnswerText(execution, results) as never);
      reply.header('preference-applied', 'return=minimal');
      return reply.send(stepRunSummaryText(execution, results) as never);
    },
  );

  app.post(
    '/api/executions/:id/stop',
    { schema: { params: idParams, body: noFieldsBody, response: { 200: executionAnswer } } },
    async (request) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      await app.executions.stop(id, userId, commandIdOf(request));
      return app.executionViews.view(id, userId);
    },
  );

  app.post(
    '/api/executions/:id/reset',
    { schema: { params: idParams, body: noFieldsBody, response: { 200: executionAnswer } } },
    async (request) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      await app.executions.handle(
        id,
        userId,
        { type: 'ResetExecution', data: {} },
        { commandId: commandIdOf(request) },
      );
      return app.executionViews.view(id, userId);
    },
  );
};

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_TEXT_CEILING } from '../../domain/limits';
import { userIdOf } from '../auth/plugin';
import { noContent, stepResultAnswer, storedAt } from '../http/answer-schemas';
import { commandIdOf, idParams } from '../http/request-schemas';

const resultUpdate = z
  .strictObject({
    result: z.string().max(MAX_TEXT_CEILING).optional(),
    label: z.string().max(200).optional(),
    approved: z.boolean().optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Give at least one of result, label, approved',
  })
  .meta({ minProperties: 1 });

/** The result's row as it stands after the change. */
const resultRow = stepResultAnswer.omit({ origin: true }).extend({ createdAt: storedAt });

export const stepResultRoutes: FastifyPluginAsyncZod = async (app) => {
  const views = app.executionViews;

  // Each change is its own command and event: an edit, then an approval change.
  app.put(
    '/api/step-results/:id',
    { schema: { params: idParams, body: resultUpdate, response: { 200: resultRow } } },
    async (request) => {
      const { id } = request.params;
      const body = request.body;
      const userId = userIdOf(request);
      const executionId = await views.executionOfResult(id, userId);
      const commandId = commandIdOf(request);
      if (body.result !== undefined || body.label !== undefined) {
        await app.executions.handle(
          executionId,
          userId,
          { type: 'EditResult', data: { resultId: id, result: body.result, label: body.label } },
          { commandId: commandId && `${commandId}:edit` },
        );
      }
      if (body.approved !== undefined) {
        await app.executions.handle(
          executionId,
          userId,
          { type: body.approved ? 'ApproveResult' : 'UnapproveResult', data: { resultId: id } },
          { commandId: commandId && `${commandId}:approval` },
        );
      }
      return views.result(id);
    },
  );

  app.delete(
    '/api/step-results/:id',
    { schema: { params: idParams, response: { 204: noContent } } },
    async (request, reply) => {
      const { id } = request.params;
      const userId = userIdOf(request);
      const executionId = await views.executionOfResult(id, userId);
      await app.executions.handle(
        executionId,
        userId,
        { type: 'DeleteResult', data: { resultId: id } },
        { commandId: commandIdOf(request) },
      );
      return reply.status(204).send();
    },
  );
};

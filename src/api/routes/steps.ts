import type { FastifyInstance } from 'fastify';
import type { Sql } from 'postgres';
import { notFound, ruleViolated } from '../../domain/errors';
import { createStepSchema, normaliseStepConfig, type Step, updateStepSchema } from '../../domain/flow';
import { userIdOf } from '../plugins/auth';
import { idParams } from '../request-schemas';

/** Input sources may only name earlier steps of the same flow (spec §5). */
async function checkInputSources(sql: Sql, flowId: string, order: number, inputSources: string[]) {
  if (inputSources.length === 0) return;
  const earlier = await sql<{ id: string }[]>`
    SELECT id FROM steps WHERE flow_id = ${flowId} AND "order" < ${order} AND id IN ${sql(inputSources)}`;
  if (earlier.length !== new Set(inputSources).size) {
    throw ruleViolated('inputSources: input sources may only be earlier steps of the same flow');
  }
}

export async function stepRoutes(app: FastifyInstance) {
  const { sql } = app;

  const ownedStep = async (stepId: string, userId: string) => {
    const [step] = await sql<Step[]>`
      SELECT s.* FROM steps s JOIN flows f ON f.id = s.flow_id WHERE s.id = ${stepId} AND f.user_id = ${userId}`;
    if (!step) throw notFound('Step not found');
    return step;
  };

  app.post('/api/steps', async (request, reply) => {
    const userId = userIdOf(request);
    const input = createStepSchema.parse(request.body);
    const [flow] = await sql`SELECT id FROM flows WHERE id = ${input.flowId} AND user_id = ${userId}`;
    if (!flow) throw notFound('Flow not found');
    await checkInputSources(sql, input.flowId, input.order, input.inputSources);
    const id = crypto.randomUUID();
    const step = normaliseStepConfig({ ...input, id });
    const [created] = await sql`
      INSERT INTO steps ${sql({
        ...step,
        inputSources: sql.json(step.inputSources),
        choices: sql.json(step.choices),
      } as Record<string, unknown>)}
      RETURNING *`;
    await sql`UPDATE flows SET updated_at = now() WHERE id = ${input.flowId}`;
    return reply.status(201).send(created);
  });

  app.put('/api/steps/:id', async (request) => {
    const { id } = idParams.parse(request.params);
    const input = updateStepSchema.parse(request.body);
    const current = await ownedStep(id, userIdOf(request));
    const next = normaliseStepConfig({ ...current, ...input });
    await checkInputSources(sql, current.flowId, next.order, next.inputSources);
    const [updated] = await sql`
      UPDATE steps SET
        name = ${next.name}, "order" = ${next.order}, system_prompt = ${next.systemPrompt},
        output_mode = ${next.outputMode}, input_sources = ${sql.json(next.inputSources)},
        choices = ${sql.json(next.choices)}, loop_target_step_id = ${next.loopTargetStepId},
        max_loop_iterations = ${next.maxLoopIterations}, current_loop_iteration = ${next.currentLoopIteration},
        requires_user_input = ${next.requiresUserInput}
      WHERE id = ${id}
      RETURNING *`;
    await sql`UPDATE flows SET updated_at = now() WHERE id = ${current.flowId}`;
    return updated;
  });

  app.delete('/api/steps/:id', async (request, reply) => {
    const { id } = idParams.parse(request.params);
    const step = await ownedStep(id, userIdOf(request));
    await sql.begin(async (tx) => {
      await tx`DELETE FROM steps WHERE id = ${id}`;
      // Later steps stop pointing at the removed one.
      await tx`
        UPDATE steps SET input_sources = input_sources - ${id}::text
        WHERE flow_id = ${step.flowId} AND input_sources ? ${id}::text`;
      await tx`UPDATE flows SET updated_at = now() WHERE id = ${step.flowId}`;
    });
    return reply.status(204).send();
  });
}

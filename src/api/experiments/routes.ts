import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { COMPARE_FLAGS, type CompareResult, compareToCsv, rowsInPage } from '../../domain/experiment/compare';
import { REVIEW_MODES, startExperimentRequestSchema } from '../../domain/experiment/config';
import { RUN_OUTCOMES, STOP_REASONS } from '../../domain/experiment/events';
import { SCORE_KINDS, SCORE_SOURCES, scorerDefinition } from '../../domain/experiment/scorer-definitions';
import { requestedId } from '../../domain/record-id';
import { userIdOf } from '../auth/plugin';
import { recordId, storedAt } from '../http/answer-schemas';
import {
  answerOf,
  DEFAULT_PAGE_SIZE,
  type ListOrder,
  listAnswer,
  pageAsked,
  pagedOr,
  pageQuery,
  positionOrder,
} from '../http/pages';
import { commandIdOf, idParams, noFieldsBody } from '../http/request-schemas';
import { COMPARE_MESSAGES, MAX_COMPARED } from './experiment-commands';
import { EXPERIMENTS_ORDER } from './experiments-repository';

const STATUSES = ['running', 'stopping', 'stopped', 'completed'] as const;
const RUN_STATUSES = ['planned', 'running', 'waiting', 'ready', 'interrupted', 'finished'] as const;

const experimentSummary = z
  .object({
    id: recordId,
    flowId: recordId,
    flowVersion: z.int(),
    datasetId: recordId,
    datasetVersion: z.int(),
    baselineId: recordId.nullable().describe('The experiment it is compared with'),
    runsTotal: z.int(),
    runsFinished: z.int(),
    startedBy: recordId,
    startedAt: storedAt,
    stoppedAt: storedAt.nullable(),
    completedAt: storedAt.nullable(),
    promotedAt: storedAt.nullable(),
    isBaseline: z.boolean().describe("Whether it is its flow's baseline now (the one promoted last)"),
    version: z.int(),
  })
  .meta({ id: 'ExperimentSummary' });

const experimentAnswer = z
  .object({
    id: recordId,
    flowId: recordId,
    flowVersion: z.int(),
    datasetId: recordId,
    datasetVersion: z.int(),
    baselineId: recordId.nullable(),
    reuseBefore: z
      .string()
      .nullable()
      .describe("The first step its runs run: those before it are the baseline run's results, reused"),
    config: z.object({
      models: z.record(z.string(), z.string()),
      review: z.record(z.string(), z.enum(REVIEW_MODES)),
      scorers: z.array(scorerDefinition),
      repetitions: z.int(),
      concurrency: z.int(),
    }),
    stepIds: z.array(z.string()).describe("The flow version's steps, in execution order"),
    status: z.enum(STATUSES),
    isBaseline: z.boolean(),
    counts: z.object({
      total: z.int(),
      planned: z.int(),
      running: z.int(),
      waiting: z.int().describe('Runs waiting for people to decide, or ready to go on once they did'),
      interrupted: z.int(),
      finished: z.int(),
      completed: z.int(),
      failed: z.int(),
      stopped: z.int(),
    }),
    runs: z.array(
      z.object({
        runKey: z.string().describe('<itemId>#<repetition>'),
        itemId: recordId,
        repetition: z.int(),
        status: z.enum(RUN_STATUSES),
        executionId: recordId.nullable(),
        reusedFrom: recordId.nullable().describe('The baseline execution whose approved results it reused'),
        outcome: z.enum(RUN_OUTCOMES).nullable(),
        startedAt: z.string().nullable(),
        finishedAt: z.string().nullable(),
      }),
    ),
    startedBy: recordId,
    startedAt: z.string(),
    stoppedAt: z.string().nullable(),
    stopReason: z
      .enum(STOP_REASONS)
      .nullable()
      .describe(
        'Why the server stopped it on its own: starterCannotRun, the one who started it may no longer run its flow. null: a person stopped it, or it did not stop',
      ),
    completedAt: z.string().nullable(),
    promotedAt: z.string().nullable(),
    version: z.int().describe("The experiment's stream version"),
  })
  .meta({ id: 'Experiment' });

const averagedScore = z.object({
  name: z.string(),
  source: z.enum(SCORE_SOURCES),
  kind: z.enum(SCORE_KINDS),
  value: z.union([z.number(), z.string()]),
});

const compareAnswer = z
  .object({
    experimentIds: z.array(recordId).describe('The baseline first'),
    scoreNames: z.array(z.string()),
    rows: z
      .array(
        z.object({
          itemId: z.string(),
          stepId: z.string().nullable().describe('null: the scores of the whole run'),
          cells: z.array(
            z.object({
              experimentId: recordId,
              repetitions: z.int(),
              output: z.string().nullable(),
              outputs: z.array(z.string().nullable()),
              reused: z.boolean().describe("Every repetition took the step's result from its baseline run"),
              scores: z.array(averagedScore),
              deltas: z.record(z.string(), z.number()).describe("Against the baseline's, per score"),
              flags: z.array(z.enum(COMPARE_FLAGS)),
            }),
          ),
        }),
      )
      .describe('One page of the rows, by item then step: `limit` (50 when not sent) after `cursor`'),
    summaries: z.array(
      z.object({
        experimentId: recordId,
        stepId: z.string().nullable(),
        rows: z.int(),
        missing: z.int(),
        regressed: z.int(),
        improved: z.int(),
        changed: z.int(),
        passRates: z.record(z.string(), z.number()),
        means: z.record(z.string(), z.number()),
        costUsd: z.number().nullable(),
        inputTokens: z.int(),
        outputTokens: z.int(),
        p50Ms: z.number().nullable(),
        p95Ms: z.number().nullable(),
        editRate: z.number().nullable(),
        meanEditDistance: z.number().nullable(),
        meanSecondsToApprove: z.number().nullable(),
        judgeAgreement: z.object({ compared: z.int(), rate: z.number().nullable() }),
        judgeUsage: z
          .object({ calls: z.int(), inputTokens: z.int(), outputTokens: z.int() })
          .nullable()
          .describe(
            "Of the whole experiment (stepId null): its judges' calls and tokens, apart from the flow's",
          ),
      }),
    ),
    nextCursor: z
      .string()
      .nullable()
      .describe('Where the next page of rows starts (send it as cursor); null: these are the last rows'),
  })
  .meta({ id: 'ExperimentComparison' });

const listQuery = pageQuery.extend({ flowId: requestedId() });
/** A comparison's rows, in their order (by item, then step): a page is the rows after a position. */
const COMPARE_ORDER: ListOrder = positionOrder('experiment-compare');
const compareQuery = pageQuery.extend({
  ids: z
    .string()
    .max(MAX_COMPARED * 37, COMPARE_MESSAGES.ids)
    .transform((text) => text.split(',').map((id) => id.trim()))
    .pipe(
      z
        .array(requestedId(COMPARE_MESSAGES.ids))
        .min(1, COMPARE_MESSAGES.ids)
        .max(MAX_COMPARED, COMPARE_MESSAGES.ids),
    )
    .describe('The experiments, comma-separated, the baseline first'),
  format: z.enum(['json', 'csv']).default('json'),
});
const scoreAgainBody = z.strictObject({
  scorerNames: z.array(z.string().min(1).max(100)).max(20).optional(),
});

/**
 * Experiments of a flow: started (202: they run after the answer), read with their runs, listed, stopped,
 * scored again, promoted to baseline, and compared. Whoever may read the flow reads and compares them;
 * whoever may run it starts, stops and scores them; whoever may change it promotes one.
 */
export const experimentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { experimentCommands } = app;

  app.post(
    '/api/experiments',
    { schema: { body: startExperimentRequestSchema, response: { 202: experimentAnswer } } },
    async (request, reply) => {
      const started = await experimentCommands.start(request.body, userIdOf(request), commandIdOf(request));
      return reply.status(202).send(started);
    },
  );

  app.get(
    '/api/experiments',
    { schema: { querystring: listQuery, response: { 200: pagedOr(experimentSummary) } } },
    async (request) => {
      const { flowId, ...page } = request.query;
      return listAnswer(page, EXPERIMENTS_ORDER, (asked) =>
        experimentCommands.list(flowId, userIdOf(request), asked),
      );
    },
  );

  app.get(
    '/api/experiments/compare',
    {
      schema: {
        querystring: compareQuery,
        response: {
          200: {
            description: 'Per item and step, and summaries; `format=csv` as a file',
            content: {
              'application/json': { schema: compareAnswer },
              'text/csv': { schema: z.string().describe('One line per item, step and experiment') },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const result: CompareResult = await experimentCommands.compare(request.query.ids, userIdOf(request));
      if (request.query.format === 'csv') {
        reply.header('content-disposition', 'attachment; filename="experiments.csv"');
        return reply.type('text/csv; charset=utf-8').send(compareToCsv(result));
      }
      // One page of rows (DEFAULT_PAGE_SIZE unless a limit is asked: never every row of 5 experiments of up
      // to 5,000 runs); the summaries stay whole, of every row.
      const page = pageAsked(request.query, COMPARE_ORDER) ?? { limit: DEFAULT_PAGE_SIZE, after: null };
      // A page ends early where its outputs would pass COMPARE_PAGE_MAX_CHARS.
      const from = page.after === null ? 0 : Number(page.after[0]) + 1;
      const count = rowsInPage(result.rows, from, page.limit);
      const keyed = result.rows
        .slice(from, from + count + 1)
        .map((row, i) => ({ ...row, pageKey: [from + i] }));
      const { items, nextCursor } = answerOf(keyed, { ...page, limit: count }, COMPARE_ORDER);
      return reply.type('application/json; charset=utf-8').send({ ...result, rows: items, nextCursor });
    },
  );

  app.get(
    '/api/experiments/:id',
    { schema: { params: idParams, response: { 200: experimentAnswer } } },
    async (request) => experimentCommands.read(request.params.id, userIdOf(request)),
  );

  app.post(
    '/api/experiments/:id/stop',
    { schema: { params: idParams, body: noFieldsBody, response: { 200: experimentAnswer } } },
    async (request) => experimentCommands.stop(request.params.id, userIdOf(request), commandIdOf(request)),
  );

  app.post(
    '/api/experiments/:id/score-again',
    { schema: { params: idParams, body: scoreAgainBody, response: { 200: experimentAnswer } } },
    async (request) =>
      experimentCommands.scoreAgain(
        request.params.id,
        userIdOf(request),
        request.body.scorerNames,
        commandIdOf(request),
      ),
  );

  app.post(
    '/api/experiments/:id/promote',
    { schema: { params: idParams, body: noFieldsBody, response: { 200: experimentAnswer } } },
    async (request) => experimentCommands.promote(request.params.id, userIdOf(request), commandIdOf(request)),
  );
};

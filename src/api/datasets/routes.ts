import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DATASET_KEY_DESCRIPTION, NAME_REQUIRED, NAME_TOO_LONG } from '../../domain/dataset/decider';
import { DATASET_ITEM_SOURCES } from '../../domain/dataset/events';
import { ruleViolated } from '../../domain/errors';
import { requiredText } from '../../domain/filled-text';
import {
  DATASET_CSV_MAX_BYTES,
  DATASET_NAME_MAX_LENGTH,
  DATASET_TAG_MAX_LENGTH,
  DATASET_TEXT_MAX_CHARS,
  MAX_DATASET_ITEM_TAGS,
  MAX_DATASET_ITEMS_PER_ADD,
} from '../../domain/limits';
import { requestedId } from '../../domain/record-id';
import { userIdOf } from '../auth/plugin';
import { recordId, storedAt } from '../http/answer-schemas';
import { listAnswer, pagedOr, pageQuery } from '../http/pages';
import { commandIdOf, idParams, noFieldsBody, wholeNumber } from '../http/request-schemas';
import { CSV_OR_ITEMS, CsvFile, csvBody, csvFileOf } from './csv-body';
import { DATASETS_ORDER } from './datasets-repository';

const texts = z
  .record(
    z.string().min(1).max(100).describe(DATASET_KEY_DESCRIPTION),
    z.string().max(DATASET_TEXT_MAX_CHARS, `tối đa ${DATASET_TEXT_MAX_CHARS} ký tự`),
  )
  .describe('Texts by step id (at most 50)');

const tags = z
  .array(z.string().max(DATASET_TAG_MAX_LENGTH, `mỗi tag tối đa ${DATASET_TAG_MAX_LENGTH} ký tự`))
  .max(MAX_DATASET_ITEM_TAGS, `tối đa ${MAX_DATASET_ITEM_TAGS} tag`)
  .describe('Labels to pick items by; trimmed, each once');

const datasetAnswer = z
  .object({
    id: recordId,
    flowId: recordId,
    name: z.string(),
    version: z.int().describe("The dataset's version: its stream's position, which an experiment pins"),
    createdBy: recordId,
    createdAt: storedAt,
    updatedAt: storedAt,
    itemCount: z.int().describe('Items, archived ones included'),
    archivedCount: z.int(),
  })
  .meta({ id: 'Dataset' });

const itemAnswer = z
  .object({
    id: recordId,
    inputs: z
      .record(z.string(), z.string())
      .describe('The user input of each step that takes one, by step id'),
    expected: z.record(z.string(), z.string()).describe('The text each step should answer, by step id'),
    tags: z.array(z.string()),
    source: z.enum(DATASET_ITEM_SOURCES),
    sourceExecutionId: recordId.nullable().describe('The execution it was captured from (source execution)'),
    archived: z
      .boolean()
      .describe('Left out of runs from the version that archived it; kept, and restorable'),
    addedBy: recordId,
    addedAt: storedAt,
    addedInVersion: z.int(),
  })
  .meta({ id: 'DatasetItem' });

const datasetWithItems = datasetAnswer
  .extend({ items: z.array(itemAnswer).describe('Oldest first, archived ones included') })
  .meta({ id: 'DatasetWithItems' });

const addedAnswer = z
  .object({
    datasetId: recordId,
    version: z.int().describe('The version the items made'),
    itemIds: z.array(recordId),
    unknownKeys: z
      .array(z.string())
      .describe('Names (and CSV columns) that are no step of the flow now: kept as given, reported'),
  })
  .meta({ id: 'AddedDatasetItems' });

const archivedAnswer = z
  .object({ datasetId: recordId, itemId: recordId, archived: z.boolean(), version: z.int() })
  .meta({ id: 'DatasetItemArchive' });

const name = requiredText(NAME_REQUIRED, DATASET_NAME_MAX_LENGTH, NAME_TOO_LONG);
const createBody = z.strictObject({ name, flowId: requestedId() });
const renameBody = z.strictObject({ name });

const itemBody = z.strictObject({ inputs: texts, expected: texts.optional(), tags: tags.optional() });
const itemsBody = z.strictObject({
  items: z
    .array(itemBody)
    .min(1, 'items: cần ít nhất một item')
    .max(MAX_DATASET_ITEMS_PER_ADD, `items: tối đa ${MAX_DATASET_ITEMS_PER_ADD} item mỗi lần thêm`),
});
const fromExecutionBody = z.strictObject({ executionId: requestedId(), tags: tags.optional() });

const listQuery = pageQuery.extend({ flowId: requestedId() });
const versionQuery = z.object({
  version: wholeNumber(1, 2 ** 31 - 1)
    .optional()
    .describe('Read the dataset as it stood at this version (its events up to it); left out: now'),
});
const itemParams = z.object({ id: requestedId(), itemId: requestedId() });

/**
 * Datasets of a flow: made, renamed, filled with items (JSON, a CSV file, or a run captured), items archived
 * and restored, and read as of any version. Whoever may read the flow reads them; whoever may change it
 * changes them.
 */
export const datasetRoutes: FastifyPluginAsyncZod = async (app) => {
  const { datasetCommands } = app;

  app.post(
    '/api/datasets',
    { schema: { body: createBody, response: { 201: datasetAnswer } } },
    async (request, reply) => {
      const dataset = await datasetCommands.create(userIdOf(request), request.body, commandIdOf(request));
      return reply.status(201).send(dataset);
    },
  );

  app.get(
    '/api/datasets',
    { schema: { querystring: listQuery, response: { 200: pagedOr(datasetAnswer) } } },
    async (request) => {
      const { flowId, ...page } = request.query;
      return listAnswer(page, DATASETS_ORDER, (asked) =>
        datasetCommands.list(flowId, userIdOf(request), asked),
      );
    },
  );

  app.get(
    '/api/datasets/:id',
    { schema: { params: idParams, querystring: versionQuery, response: { 200: datasetWithItems } } },
    async (request) => datasetCommands.read(request.params.id, userIdOf(request), request.query.version),
  );

  app.patch(
    '/api/datasets/:id',
    { schema: { params: idParams, body: renameBody, response: { 200: datasetAnswer } } },
    async (request) =>
      datasetCommands.rename(request.params.id, userIdOf(request), request.body.name, commandIdOf(request)),
  );

  // Only the route that adds items takes a CSV file (the text as it came): the parser is its own context's, so
  // every other route here refuses text/csv (415) as the rest of the API does.
  const itemRoutes: FastifyPluginAsyncZod = async (csvRoutes) => {
    csvRoutes.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, csvFileOf(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    });

    csvRoutes.post(
      '/api/datasets/:id/items',
      {
        // The file's own limit, the route's: what a 413 past it names (a JSON body of items is held to it too).
        bodyLimit: DATASET_CSV_MAX_BYTES,
        schema: {
          params: idParams,
          // Each content type its own shape: JSON items, or a CSV file's text.
          body: { content: { 'application/json': { schema: itemsBody }, 'text/csv': { schema: csvBody } } },
          response: { 201: addedAnswer },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const userId = userIdOf(request);
        const body = request.body as z.output<typeof itemsBody> | CsvFile | string | null | undefined;
        // A request without a body, or of neither type (text/plain reaches here as a string), is checked by
        // neither schema: only a JSON object (checked as itemsBody) or a CSV file goes on.
        if (typeof body !== 'object' || body === null) throw ruleViolated(CSV_OR_ITEMS);
        let added: Awaited<ReturnType<typeof datasetCommands.addItems>>;
        if (body instanceof CsvFile) {
          added = await datasetCommands.addCsv(id, userId, body.text, commandIdOf(request));
        } else {
          added = await datasetCommands.addItems(id, userId, body.items, commandIdOf(request));
        }
        return reply.status(201).send(added);
      },
    );
  };
  await app.register(itemRoutes);

  app.post(
    '/api/datasets/:id/items/from-execution',
    { schema: { params: idParams, body: fromExecutionBody, response: { 201: addedAnswer } } },
    async (request, reply) => {
      const added = await datasetCommands.addFromExecution(
        request.params.id,
        userIdOf(request),
        request.body,
        commandIdOf(request),
      );
      return reply.status(201).send(added);
    },
  );

  app.post(
    '/api/datasets/:id/items/:itemId/archive',
    { schema: { params: itemParams, body: noFieldsBody, response: { 200: archivedAnswer } } },
    async (request) =>
      datasetCommands.archive(
        request.params.id,
        userIdOf(request),
        request.params.itemId,
        commandIdOf(request),
      ),
  );

  app.post(
    '/api/datasets/:id/items/:itemId/restore',
    { schema: { params: itemParams, body: noFieldsBody, response: { 200: archivedAnswer } } },
    async (request) =>
      datasetCommands.restore(
        request.params.id,
        userIdOf(request),
        request.params.itemId,
        commandIdOf(request),
      ),
  );
};
